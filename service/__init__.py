"""Remedy: deterministic, multilingual troubleshooting for AI Toolkit out-of-memory failures.

Layers, one direction: http -> engine -> index -> content. Nothing imports the HTTP layer.
"""

__version__ = "0.1.0"
