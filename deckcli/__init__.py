"""deckcli: deck builder, validator and rules referee for two card games."""

__version__ = "0.1.0"
