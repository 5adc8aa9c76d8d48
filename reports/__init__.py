"""paipu."""
