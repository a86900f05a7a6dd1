"""The home page: compute (its one model call) and draw (the path, the next-token bars, the model's card)."""
