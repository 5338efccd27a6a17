"""Understanding free text and logs: analysis, matching and context extraction (index + engine layers)."""
