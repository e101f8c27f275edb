"""LLM access through DSPy: LM construction from config, response cache, signatures."""
