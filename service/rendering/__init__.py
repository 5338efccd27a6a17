"""Rendering layer: language-neutral plans and content -> localized, JSON-ready views, looked up by id."""
