"""Public architecture decision records as a benchmark (``dataset=adr_decisions``): one episode per repository."""
