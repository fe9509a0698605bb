#!/usr/bin/python3
"""Exports the real-model corpus of test/RealModels (issue 15).

Run with Debian's python3-torch / python3-torchvision (they install for
/usr/bin/python3):

    /usr/bin/python3 test/RealModels/export.py [--out test/RealModels] [--only NAME ...]

Every model is a real architecture (torchvision's own classes where they
exist, HuggingFace-style modules written out here otherwise), randomly
initialised with a fixed seed and shrunk to a few KB. Each is wrapped so that
the exported graph returns (output, loss) with F.cross_entropy, and exported
in eval mode (dropout off) with training=TrainingMode.PRESERVE, so batch norm
stays a BatchNormalization node instead of being folded into the
convolutions; it then uses its running statistics (frozen batch norm).

For each model NAME the script writes, into OUT/NAME/:
  model.onnx            the exported graph (opset 17, static shapes)
  model.dynamic_batch.onnx  the same with a symbolic batch (dynamic_axes on
                        dim 0 of every input and of the output; its folded
                        initializers may be numbered differently, so
                        map.json describes model.onnx only)
  <input>.npy           the graph inputs (input, labels, ...)
  output.npy, loss.npy  torch's forward results
  grads/<param>.npy     torch's gradient of the loss for every parameter
  map.json              ONNX initializer -> torch parameter(s), with the
                        permutation that turns the parameter into the
                        initializer (torch folds nn.Linear's W into W^T
                        initializers named like onnx::MatMul_12), the
                        parameters torch deduplicated into one initializer,
                        LSTM/GRU gate blocks and folded gathers
Regenerating is deterministic: same torch version, same bytes.
"""
import argparse
import io
import json
import math
import os
import sys

import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchvision.models.resnet import BasicBlock, ResNet

OPSET = 17
BATCH = 4  # dp=2 x microbatches=2 and microbatches=4 need a multiple of 4


# ----------------------------------------------------------------------------
# Vision models: torchvision's classes, shrunk.

def tiny_resnet():
    """torchvision ResNet with BasicBlocks, widths 8-16-32-64 instead of 64-512."""
    model = ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10)
    model.inplanes = 8
    model.conv1 = nn.Conv2d(3, 8, kernel_size=7, stride=2, padding=3, bias=False)
    model.bn1 = nn.BatchNorm2d(8)
    model.layer1 = model._make_layer(BasicBlock, 8, 1)
    model.layer2 = model._make_layer(BasicBlock, 16, 1, stride=2)
    model.layer3 = model._make_layer(BasicBlock, 32, 1, stride=2)
    model.layer4 = model._make_layer(BasicBlock, 64, 1, stride=2)
    model.fc = nn.Linear(64, 10)
    return model, (BATCH, 3, 32, 32), 10


def tiny_mobilenet_v3():
    model = torchvision.models.mobilenet_v3_small(width_mult=0.25, num_classes=10)
    return model, (BATCH, 3, 32, 32), 10


def tiny_densenet():
    model = torchvision.models.DenseNet(growth_rate=4, block_config=(2, 2),
                                        num_init_features=8, bn_size=2,
                                        num_classes=10)
    return model, (BATCH, 3, 32, 32), 10


def tiny_vit():
    model = torchvision.models.VisionTransformer(
        image_size=16, patch_size=4, num_layers=2, num_heads=2, hidden_dim=16,
        mlp_dim=32, num_classes=10)
    return model, (BATCH, 3, 16, 16), 10


def tiny_swin():
    model = torchvision.models.SwinTransformer(
        patch_size=[2, 2], embed_dim=8, depths=[2, 2], num_heads=[2, 2],
        window_size=[2, 2], num_classes=10)
    return model, (BATCH, 3, 16, 16), 10


class ClassifierWithLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input, labels):
        output = self.model(input)
        return output, F.cross_entropy(output, labels)


# ----------------------------------------------------------------------------
# Language models: recurrent and HuggingFace-style transformers, tiny dims.

VOCAB = 64
SEQ = 8


class RnnLM(nn.Module):
    """Embedding -> 2-layer LSTM or GRU -> Linear over the vocabulary."""

    def __init__(self, cell):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.rnn = cell(16, 16, num_layers=2, batch_first=True)
        self.head = nn.Linear(16, VOCAB)

    def forward(self, input_ids, labels):
        hidden, _ = self.rnn(self.embed(input_ids))
        logits = self.head(hidden)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))
        return logits, loss


class BertSelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)

    def split(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.heads, d // self.heads).permute(0, 2, 1, 3)

    def forward(self, x, mask_bias):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + mask_bias
        ctx = torch.softmax(scores, dim=-1) @ v
        b, h, s, dh = ctx.shape
        return ctx.permute(0, 2, 1, 3).reshape(b, s, h * dh)


class BertLayer(nn.Module):
    def __init__(self, d, heads, ffn):
        super().__init__()
        self.attention = BertSelfAttention(d, heads)
        self.attention_output = nn.Linear(d, d)
        self.attention_norm = nn.LayerNorm(d, eps=1e-12)
        self.intermediate = nn.Linear(d, ffn)
        self.output = nn.Linear(ffn, d)
        self.output_norm = nn.LayerNorm(d, eps=1e-12)

    def forward(self, x, mask_bias):
        x = self.attention_norm(x + self.attention_output(self.attention(x, mask_bias)))
        return self.output_norm(x + self.output(F.gelu(self.intermediate(x))))


class BertMLM(nn.Module):
    """BERT: word + position + token-type embeddings, post-norm encoder layers
    with an additive attention mask, and the masked-LM head (transform + tied
    decoder with its own bias)."""

    def __init__(self, d=16, heads=2, ffn=32, layers=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(VOCAB, d)
        self.position_embeddings = nn.Embedding(SEQ, d)
        self.token_type_embeddings = nn.Embedding(2, d)
        self.embeddings_norm = nn.LayerNorm(d, eps=1e-12)
        self.layer = nn.ModuleList(BertLayer(d, heads, ffn) for _ in range(layers))
        self.transform = nn.Linear(d, d)
        self.transform_norm = nn.LayerNorm(d, eps=1e-12)
        self.decoder_bias = nn.Parameter(torch.zeros(VOCAB).uniform_(-0.1, 0.1))
        self.register_buffer("position_ids", torch.arange(SEQ).unsqueeze(0))

    def forward(self, input_ids, token_type_ids, attention_mask, labels):
        x = (self.word_embeddings(input_ids) + self.position_embeddings(self.position_ids)
             + self.token_type_embeddings(token_type_ids))
        x = self.embeddings_norm(x)
        mask_bias = (1.0 - attention_mask[:, None, None, :]) * -10000.0
        for layer in self.layer:
            x = layer(x, mask_bias)
        h = self.transform_norm(F.gelu(self.transform(x)))
        logits = F.linear(h, self.word_embeddings.weight, self.decoder_bias)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))
        return logits, loss


class Conv1D(nn.Module):
    """HuggingFace GPT-2's Conv1D: y = x @ W + b with W stored [in, out]."""

    def __init__(self, nx, nf):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
        self.bias = nn.Parameter(torch.randn(nf) * 0.02)

    def forward(self, x):
        shape = x.shape[:-1] + (self.weight.shape[1],)
        return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).view(shape)


class GPT2Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = Conv1D(d, 3 * d)
        self.c_proj = Conv1D(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = Conv1D(d, 4 * d)
        self.mlp_c_proj = Conv1D(4 * d, d)
        self.register_buffer("bias", torch.tril(torch.ones(SEQ, SEQ, dtype=torch.bool)).view(1, 1, SEQ, SEQ))

    def attn(self, x):
        b, s, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        q, k, v = (t.view(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        w = q @ k.transpose(-1, -2) / math.sqrt(d // self.heads)
        w = torch.where(self.bias[:, :, :s, :s], w, torch.tensor(torch.finfo(w.dtype).min))
        out = torch.softmax(w, dim=-1) @ v
        return self.c_proj(out.transpose(1, 2).reshape(b, s, d))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp_c_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT2LM(nn.Module):
    """GPT-2: token + position embeddings, pre-norm blocks with a causal mask,
    final LayerNorm and the LM head tied to the token embedding (as in HF)."""

    def __init__(self, d=16, heads=2, layers=2):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, d)
        self.wpe = nn.Embedding(SEQ, d)
        self.h = nn.ModuleList(GPT2Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.register_buffer("position_ids", torch.arange(SEQ).unsqueeze(0))

    def forward(self, input_ids, labels):
        x = self.wte(input_ids) + self.wpe(self.position_ids)
        for block in self.h:
            x = block(x)
        logits = F.linear(self.ln_f(x), self.wte.weight)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))
        return logits, loss


class T5LayerNorm(nn.Module):
    """T5's RMS norm: no mean subtraction, no bias."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


def t5_relative_buckets(q_len, k_len, bidirectional, num_buckets=8, max_distance=16):
    """HF T5's _relative_position_bucket. The positions are fixed at export, so
    it runs here and the graph holds the buckets as a constant."""
    rel = torch.arange(k_len)[None, :] - torch.arange(q_len)[:, None]
    buckets = torch.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        buckets += (rel > 0).long() * num_buckets
        rel = rel.abs()
    else:
        rel = -torch.min(rel, torch.zeros_like(rel))
    max_exact = num_buckets // 2
    large = max_exact + (torch.log(rel.float() / max_exact) / math.log(max_distance / max_exact)
                         * (num_buckets - max_exact)).long()
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(rel < max_exact, rel, large)


class T5Attention(nn.Module):
    def __init__(self, d, heads, relative_bias, bidirectional):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.relative_attention_bias = nn.Embedding(8, heads) if relative_bias else None
        self.register_buffer("buckets", t5_relative_buckets(SEQ, SEQ, bidirectional))

    def split(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.heads, d // self.heads).transpose(1, 2)

    def position_bias(self):
        return self.relative_attention_bias(self.buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x, kv, bias):
        q, k, v = self.split(self.q(x)), self.split(self.k(kv)), self.split(self.v(kv))
        scores = q @ k.transpose(-1, -2) + bias  # T5 does not scale by 1/sqrt(d)
        out = torch.softmax(scores, dim=-1) @ v
        b, h, s, dh = out.shape
        return self.o(out.transpose(1, 2).reshape(b, s, h * dh))


class T5Block(nn.Module):
    def __init__(self, d, heads, ffn, decoder, first):
        super().__init__()
        self.self_norm = T5LayerNorm(d)
        self.self_attn = T5Attention(d, heads, first, bidirectional=not decoder)
        if decoder:
            self.cross_norm = T5LayerNorm(d)
            self.cross_attn = T5Attention(d, heads, False, bidirectional=True)
        self.ff_norm = T5LayerNorm(d)
        self.wi = nn.Linear(d, ffn, bias=False)
        self.wo = nn.Linear(ffn, d, bias=False)

    def forward(self, x, self_bias, enc=None):
        h = self.self_norm(x)
        x = x + self.self_attn(h, h, self_bias)
        if enc is not None:
            x = x + self.cross_attn(self.cross_norm(x), enc, 0.0)
        return x + self.wo(F.relu(self.wi(self.ff_norm(x))))


class T5LM(nn.Module):
    """T5 (v1.0): shared embedding for encoder, decoder and the tied LM head
    (scaled by d^-0.5), RMS norms, relative position bias in the first layer
    of each stack (with a causal mask in the decoder), ReLU feed-forward."""

    def __init__(self, d=16, heads=2, ffn=32, layers=2):
        super().__init__()
        self.d = d
        self.shared = nn.Embedding(VOCAB, d)
        self.encoder = nn.ModuleList(T5Block(d, heads, ffn, False, i == 0) for i in range(layers))
        self.encoder_norm = T5LayerNorm(d)
        self.decoder = nn.ModuleList(T5Block(d, heads, ffn, True, i == 0) for i in range(layers))
        self.decoder_norm = T5LayerNorm(d)
        self.register_buffer("causal", torch.tril(torch.ones(SEQ, SEQ, dtype=torch.bool))[None, None])

    def forward(self, input_ids, decoder_input_ids, labels):
        x = self.shared(input_ids)
        bias = self.encoder[0].self_attn.position_bias()
        for block in self.encoder:
            x = block(x, bias)
        enc = self.encoder_norm(x)
        y = self.shared(decoder_input_ids)
        bias = torch.where(self.causal, self.decoder[0].self_attn.position_bias(),
                           torch.tensor(torch.finfo(torch.float32).min))
        for block in self.decoder:
            y = block(y, bias, enc)
        y = self.decoder_norm(y) * self.d ** -0.5
        logits = F.linear(y, self.shared.weight)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))
        return logits, loss


def token_inputs(names):
    g = torch.Generator().manual_seed(1)
    return {name: torch.randint(0, VOCAB, (BATCH, SEQ), generator=g) for name in names}


def language_model(module, names):
    inputs = token_inputs(names)
    return module, inputs


def vision_model(factory):
    model, shape, classes = factory()
    g = torch.Generator().manual_seed(1)
    inputs = {"input": torch.randn(shape, generator=g),
              "labels": torch.randint(0, classes, (shape[0],), generator=g)}
    return ClassifierWithLoss(model), inputs


def bert():
    inputs = token_inputs(["input_ids", "labels"])
    inputs["token_type_ids"] = torch.tensor([[0] * 5 + [1] * 3] * BATCH)
    # The last sequences are padded: their final positions are masked out.
    inputs["attention_mask"] = torch.tensor([[1.0] * (SEQ - i) + [0.0] * i for i in range(BATCH)])
    order = ["input_ids", "token_type_ids", "attention_mask", "labels"]
    return BertMLM(), {name: inputs[name] for name in order}


MODELS = {
    "resnet": lambda: vision_model(tiny_resnet),
    "mobilenet_v3": lambda: vision_model(tiny_mobilenet_v3),
    "densenet": lambda: vision_model(tiny_densenet),
    "vit": lambda: vision_model(tiny_vit),
    "swin": lambda: vision_model(tiny_swin),
    "lstm_lm": lambda: language_model(RnnLM(nn.LSTM), ["input_ids", "labels"]),
    "gru_lm": lambda: language_model(RnnLM(nn.GRU), ["input_ids", "labels"]),
    "bert": bert,
    "gpt2": lambda: language_model(GPT2LM(), ["input_ids", "labels"]),
    "t5": lambda: language_model(T5LM(), ["input_ids", "decoder_input_ids", "labels"]),
}


# ----------------------------------------------------------------------------
# Export and references.

def permutations(rank):
    import itertools
    return [list(p) for p in itertools.permutations(range(rank))]


def map_initializers(onnx_model, params):
    """Which torch parameters each ONNX float initializer holds.

    An initializer named like a parameter is that parameter. Any other one
    (torch's constant folding names them onnx::MatMul_12, ...) is matched by
    value, possibly permuted (nn.Linear's weight becomes W^T). Parameters
    still without an initializer afterwards were deduplicated by torch into
    an initializer of equal value (e.g. every LayerNorm weight of ones)."""
    entries = []
    covered = set()
    params_np = {n: p.detach().numpy() for n, p in params.items()}
    inits = [i for i in onnx_model.graph.initializer
             if i.data_type == onnx.TensorProto.FLOAT]
    values = {i.name: onnx.numpy_helper.to_array(i) for i in inits}
    for name, value in values.items():
        if name in params_np:
            entries.append({"initializer": name, "parameter": name, "perm": None})
            covered.add(name)
            continue
        for pname, pvalue in params_np.items():
            if pvalue.ndim != value.ndim or pvalue.size != value.size or pvalue.ndim < 2:
                continue
            for perm in permutations(pvalue.ndim)[1:]:
                if np.array_equal(np.transpose(pvalue, perm), value):
                    entries.append({"initializer": name, "parameter": pname, "perm": perm})
                    covered.add(pname)
    for pname, pvalue in params_np.items():
        if pname in covered:
            continue
        for name, value in values.items():
            if value.shape == pvalue.shape and np.array_equal(value, pvalue):
                entries.append({"initializer": name, "parameter": pname, "perm": None,
                                "deduplicated": True})
                covered.add(pname)
                break
    mapped_inits = {e["initializer"] for e in entries}
    for name, value in values.items():
        if name not in mapped_inits:
            entries += match_gate_blocks(name, value, params_np, covered)
    mapped_inits = {e["initializer"] for e in entries}
    for name, value in values.items():
        if name not in mapped_inits:
            entries += match_gather(name, value, params_np, covered)
    unmapped = [n for n in params_np if n not in covered]
    others = [n for n in values if n not in {e["initializer"] for e in entries}]
    return {"entries": entries, "unmapped_parameters": unmapped,
            "unmapped_initializers": others}


def match_gate_blocks(name, value, params_np, covered):
    """An ONNX LSTM/GRU weight or bias [1, rows, ...] holds the torch
    parameters' gate blocks in another order (torch LSTM i,f,g,o is ONNX
    i,o,f,c; GRU r,z,n is z,r,h), the two biases concatenated. Finds each
    parameter's row offset and gate order ("gates": torch block per ONNX
    block)."""
    import itertools
    if value.ndim < 2 or value.shape[0] != 1:
        return []
    rows = value[0]
    found = []
    for pname, pvalue in params_np.items():
        if pname in covered or pvalue.shape[1:] != rows.shape[1:]:
            continue
        for k in (3, 4):
            if pvalue.shape[0] % k:
                continue
            blocks = np.split(pvalue, k)
            for gates in itertools.permutations(range(k)):
                candidate = np.concatenate([blocks[g] for g in gates])
                for offset in range(0, rows.shape[0] - candidate.shape[0] + 1, blocks[0].shape[0]):
                    if np.array_equal(rows[offset:offset + candidate.shape[0]], candidate):
                        found.append({"initializer": name, "parameter": pname, "perm": None,
                                      "gates": list(gates), "offset": offset})
                        covered.add(pname)
                        break
                if pname in covered:
                    break
            if pname in covered:
                break
    return found


def match_gather(name, value, params_np, covered):
    """An initializer whose every element is an element of one parameter:
    torch folded a constant-index Gather (+ reshapes, transposes) of it, as
    Swin's relative_position_bias_table[relative_position_index]. "gather"
    lists, per initializer element (C order), the parameter element it holds."""
    for pname, pvalue in params_np.items():
        if pname in covered:
            continue
        flat = pvalue.reshape(-1)
        order = np.argsort(flat, kind="stable")
        if len(np.unique(flat)) != flat.size:
            continue  # ambiguous: equal elements
        pos = np.clip(np.searchsorted(flat[order], value.reshape(-1)), 0, flat.size - 1)
        index = order[pos]
        if np.array_equal(flat[index], value.reshape(-1)):
            covered.add(pname)
            return [{"initializer": name, "parameter": pname, "perm": None,
                     "gather": index.tolist()}]
    return []


def save(path, array):
    np.save(path, np.asarray(array))


def export_onnx(module, args, input_names, path, dynamic_axes=None):
    buffer = io.BytesIO()
    torch.onnx.export(module, args, buffer, opset_version=OPSET,
                      input_names=input_names, output_names=["output", "loss"],
                      training=torch.onnx.TrainingMode.PRESERVE,
                      do_constant_folding=True, dynamic_axes=dynamic_axes)
    onnx_model = onnx.load_from_string(buffer.getvalue())
    onnx_model.producer_version = torch.__version__
    with open(path, "wb") as f:
        f.write(onnx_model.SerializeToString())
    return onnx_model


def export(name, out_root):
    torch.manual_seed(0)
    module, inputs = MODELS[name]()
    module.eval()
    out = os.path.join(out_root, name)
    os.makedirs(os.path.join(out, "grads"), exist_ok=True)
    for old in os.listdir(os.path.join(out, "grads")):
        os.remove(os.path.join(out, "grads", old))

    args = tuple(inputs.values())
    onnx_model = export_onnx(module, args, list(inputs), os.path.join(out, "model.onnx"))
    batch_axes = {name: {0: "batch"} for name in list(inputs) + ["output"]}
    export_onnx(module, args, list(inputs), os.path.join(out, "model.dynamic_batch.onnx"),
                dynamic_axes=batch_axes)

    module.zero_grad()
    output, loss = module(*args)
    loss.backward()
    for input_name, value in inputs.items():
        save(os.path.join(out, input_name + ".npy"), value.numpy())
    save(os.path.join(out, "output.npy"), output.detach().numpy())
    save(os.path.join(out, "loss.npy"), loss.detach().numpy())
    params = dict(module.named_parameters())
    for pname, p in params.items():
        grad = p.grad if p.grad is not None else torch.zeros_like(p)
        save(os.path.join(out, "grads", pname + ".npy"), grad.numpy())
    mapping = map_initializers(onnx_model, params)
    mapping["inputs"] = list(inputs)
    mapping["torch"] = torch.__version__
    with open(os.path.join(out, "map.json"), "w") as f:
        json.dump(mapping, f, indent=1, sort_keys=True)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print(f"{name}: {sum(p.numel() for p in params.values())} parameters, {size} bytes,"
          f" unmapped {mapping['unmapped_parameters']} {mapping['unmapped_initializers']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--only", nargs="*", default=list(MODELS))
    args = parser.parse_args()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    for name in args.only:
        export(name, args.out)


if __name__ == "__main__":
    sys.exit(main())
