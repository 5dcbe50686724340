"""Hostile types."""
GeneratorType = object
