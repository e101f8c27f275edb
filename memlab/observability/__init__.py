"""What a run shows of itself: span tree, structured logs, progress bars, provenance, figures. Every layer may call
them, so they import only :mod:`memlab.core`; tqdm, matplotlib and OpenTelemetry load only when used.
"""
