"""datasched package."""
