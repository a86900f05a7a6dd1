"""Published figures of other models that the pages cite, each with its source (never the model running here)."""

# GPT-3 175B (Brown et al. 2020, "Language Models are Few-Shot Learners", table 2.1): the width, layers and
# heads that seed 004 gives to GPT-4 ("12.288 dimensões", "96 cabeças em 96+ camadas"). GPT-4's are unpublished.
GPT3 = {"d_model": 12_288, "n_layers": 96, "n_heads": 96}

# GPT-2's four sizes as OpenAI corrected them (the gpt-2 repository's model card: 124M, 355M, 774M, 1.5B; the
# 2019 paper's 117M/345M/762M/1542M undercounted), with 12, 24, 36 and 48 layers.
GPT2_PARAMS = (124e6, 355e6, 774e6, 1.5e9)
GPT2_LAYERS = (12, 24, 36, 48)
GPT2_SEED_PARAMS = (117e6, 1.5e9)  # what seed 004's table prints ("117M - 1.5B"), shown beside the correction

# The cost of the Q4_K_M recipe on other models, as llama.cpp measures it against FP16 on Wikitext-2
# (llama.cpp, tools/perplexity/README.md, "LLaMA 2 vs. LLaMA 3 Quantization comparison", revision f364eb6f,
# columns "L3 8b q4_K_M" and "L2 7b q4_K_M": rows Mean KLD, Same top p, Mean PPL ratio). No float copy of
# Gemma 3 270M can be had offline here, so the pages cite these instead of measuring this model's cost.
LLAMACPP_Q4_K_M = {
    "source": "llama.cpp, tools/perplexity/README.md (rev. f364eb6f)",
    "model": "Llama 3 8B", "kld": 0.031273, "same_top": 0.91901, "ppl_ratio": 1.028160,
    "model2": "Llama 2 7B", "kld2": 0.012686, "same_top2": 0.94665,
}
