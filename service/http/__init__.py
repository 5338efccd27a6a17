"""HTTP layer: thin FastAPI routers over the engine and the rendered views. Nothing imports it."""
