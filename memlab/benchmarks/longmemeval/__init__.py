"""LongMemEval (Wu et al., ICLR 2025) as a memlab benchmark: session-level evidence recall per question type.

A local JSON file in LongMemEval's format (``dataset.path=...``) or a Hugging Face hub id (online machines).
"""
