"""Content layer: knowledge YAML -> strict, frozen pydantic models, and the checks that keep it honest.

No FastAPI here. A broken file is reported with its file, the path inside it and a stable code.
"""
