"""``python -m paipu.pipeline.cli``: the paipu command line."""

from paipu.pipeline.cli import main

main()
