"""The model's own steps, in the order a reader learns them: tokens, one forward pass (tracing, activations),
the MLP, the KV cache, sampling and its statistics, and the loop (stepping). Never imports a lesson."""
