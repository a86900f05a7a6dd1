"""How the model is held and run, for every page and every visitor: settings, loading, conversion, speed-ups,
the CPU and its threads, the model's queue, and the memo visitors share. Nothing here knows a lesson."""
