"""Shipped models and their safe (non-pickle) file format; a leaf layer strategies may read."""
