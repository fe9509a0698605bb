"""Writes one GPT transformer layer (forward, or forward and backward) as a
placed dist program with Megatron tensor parallelism: QKV and fc1
column-parallel, proj and fc2 row-parallel followed by an all-reduce over the
tensor-parallel group; in backward the input gradients of the
column-parallel layers are all-reduced. Defaults: the GPT-22B layer of
Korthikanti et al. 2022, Table 4 (hidden 6144, 64 heads, seq 2048,
micro-batch 4, fp16, tp=8 on one DGX A100).

The dialect has no dropout-gradient op: the backward of a dropout is written
as a dropout of the incoming gradient, which has the same cost (one
element-wise pass, same shapes)."""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--hidden", type=int, default=6144)
p.add_argument("--heads", type=int, default=64)
p.add_argument("--seq", type=int, default=2048)
p.add_argument("--batch", type=int, default=4)
p.add_argument("--tp", type=int, default=8)
p.add_argument("--dtype", default="f16")
p.add_argument("--forward-only", action="store_true")
a = p.parse_args()

h, s, b, t, dt = a.hidden, a.seq, a.batch, a.tp, a.dtype
tokens, local_heads, head_dim = b * s, a.heads // t, h // a.heads
lh, lf, ab = h // t, 4 * h // t, b * (a.heads // t)
place = "#dist.devices<[0:%d]>" % t
groups = "[[%s]]" % ", ".join(str(i) for i in range(t))


def ty(*shape):
    return "tensor<%sx%s, %s>" % ("x".join(str(d) for d in shape), dt, place)


lines = []
counter = [0]


def op(text, result_type, operand_types):
    counter[0] += 1
    name = "%%v%d" % counter[0]
    lines.append("  %s = %s : (%s) -> %s" % (name, text, ", ".join(operand_types), result_type))
    return name


def matmul(x, xt, y, yt, rt, attrs=""):
    return op("dist.matmul %s, %s%s" % (x, y, attrs), rt, [xt, yt])


def unary(name, x, xt, attrs=""):
    return op("dist.%s %s%s" % (name, x, attrs), xt, [xt])


def add(x, y, xt):
    return op("dist.add %s, %s" % (x, y), xt, [xt, xt])


def all_reduce(x, xt):
    counter[0] += 1
    name = "%%v%d" % counter[0]
    lines.append("  %s = dist.all_reduce %s sum groups %s : %s -> %s" % (name, x, groups, xt, xt))
    return name


def reshape(x, xt, *shape):
    return op("dist.reshape %s {shape = array<i64: %s>}" % (x, ", ".join(str(d) for d in shape)),
              ty(*shape), [xt])


def transpose(x, xt, perm, *shape):
    return op("dist.transpose %s {permutation = array<i64: %s>}" % (x, ", ".join(str(d) for d in perm)),
              ty(*shape), [xt])


def heads_to_batch(x):
    """[tokens, lh] -> [b*heads, s, head_dim] (a copy, as Megatron does)."""
    x = reshape(x, ty(tokens, lh), b, s, local_heads, head_dim)
    x = transpose(x, ty(b, s, local_heads, head_dim), [0, 2, 1, 3], b, local_heads, s, head_dim)
    return reshape(x, ty(b, local_heads, s, head_dim), ab, s, head_dim)


def batch_to_heads(x):
    x = reshape(x, ty(ab, s, head_dim), b, local_heads, s, head_dim)
    x = transpose(x, ty(b, local_heads, s, head_dim), [0, 2, 1, 3], b, s, local_heads, head_dim)
    return reshape(x, ty(b, s, local_heads, head_dim), tokens, lh)


act, qkvt, ffn = ty(tokens, h), ty(tokens, 3 * lh), ty(tokens, lf)
scores, per_head = ty(ab, s, s), ty(ab, s, head_dim)
vec = ty(h)
args = [("%x", act), ("%g1", vec), ("%b1", vec), ("%wqkv", ty(h, 3 * lh)), ("%wo", ty(lh, h)),
        ("%g2", vec), ("%b2", vec), ("%w1", ty(h, lf)), ("%w2", ty(lf, h)), ("%dy", act)]
scale = "%.6f" % (head_dim ** -0.5)

# Forward.
ln1 = op("dist.layer_norm %x, %g1, %b1", act, [act, vec, vec])
qkv = matmul(ln1, act, "%wqkv", ty(h, 3 * lh), qkvt)
counter[0] += 1
q, k, v = "%%v%d#0" % counter[0], "%%v%d#1" % counter[0], "%%v%d#2" % counter[0]
lines.append("  %%v%d:3 = dist.split %s {axis = 1 : i64, sizes = array<i64: %d, %d, %d>} : (%s) -> (%s, %s, %s)"
             % (counter[0], qkv, lh, lh, lh, qkvt, ty(tokens, lh), ty(tokens, lh), ty(tokens, lh)))
qh, kh, vh = heads_to_batch(q), heads_to_batch(k), heads_to_batch(v)
score = matmul(qh, per_head, kh, per_head, scores, " {transpose_b}")
probs = unary("softmax", score, scores, " {scale = %s : f64, causal}" % scale)
probs_drop = unary("dropout", probs, scores, " {ratio = 0.1 : f64}")
context = matmul(probs_drop, scores, vh, per_head, per_head)
context2d = batch_to_heads(context)
proj = matmul(context2d, ty(tokens, lh), "%wo", ty(lh, h), act)
proj_sum = all_reduce(proj, act)
drop1 = unary("dropout", proj_sum, act, " {ratio = 0.1 : f64}")
res1 = add(drop1, "%x", act)
ln2 = op("dist.layer_norm %s, %%g2, %%b2" % res1, act, [act, vec, vec])
fc1 = matmul(ln2, act, "%w1", ty(h, lf), ffn)
gelu = unary("gelu", fc1, ffn)
fc2 = matmul(gelu, ffn, "%w2", ty(lf, h), act)
fc2_sum = all_reduce(fc2, act)
drop2 = unary("dropout", fc2_sum, act, " {ratio = 0.1 : f64}")
out = add(drop2, res1, act)
results = [(out, act)]

if not a.forward_only:
    d_drop2 = unary("dropout", "%dy", act, " {ratio = 0.1 : f64}")
    d_gelu = matmul(d_drop2, act, "%w2", ty(lf, h), ffn, " {transpose_b}")
    d_w2 = matmul(gelu, ffn, d_drop2, act, ty(lf, h), " {transpose_a}")
    d_fc1 = op("dist.gelu_grad %s, %s" % (d_gelu, fc1), ffn, [ffn, ffn])
    d_ln2 = matmul(d_fc1, ffn, "%w1", ty(h, lf), act, " {transpose_b}")
    d_w1 = matmul(ln2, act, d_fc1, ffn, ty(h, lf), " {transpose_a}")
    d_ln2_sum = all_reduce(d_ln2, act)
    counter[0] += 1
    lng2 = counter[0]
    lines.append("  %%v%d:3 = dist.layer_norm_grad %s, %s, %%g2 : (%s, %s, %s) -> (%s, %s, %s)"
                 % (lng2, d_ln2_sum, res1, act, act, vec, act, vec, vec))
    d_res1 = add("%%v%d#0" % lng2, "%dy", act)
    d_proj = unary("dropout", d_res1, act, " {ratio = 0.1 : f64}")
    d_context2d = matmul(d_proj, act, "%wo", ty(lh, h), ty(tokens, lh), " {transpose_b}")
    d_wo = matmul(context2d, ty(tokens, lh), d_proj, act, ty(lh, h), " {transpose_a}")
    d_context = heads_to_batch(d_context2d)
    d_probs_drop = matmul(d_context, per_head, vh, per_head, scores, " {transpose_b}")
    d_v = matmul(probs_drop, scores, d_context, per_head, per_head, " {transpose_a}")
    d_probs = unary("dropout", d_probs_drop, scores, " {ratio = 0.1 : f64}")
    d_score = op("dist.softmax_grad %s, %s {scale = %s : f64}" % (d_probs, probs, scale),
                 scores, [scores, scores])
    d_q = matmul(d_score, scores, kh, per_head, per_head)
    d_k = matmul(d_score, scores, qh, per_head, per_head, " {transpose_a}")
    d_qkv = op("dist.concat %s, %s, %s {axis = 1 : i64}"
               % (batch_to_heads(d_q), batch_to_heads(d_k), batch_to_heads(d_v)),
               qkvt, [ty(tokens, lh)] * 3)
    d_ln1 = matmul(d_qkv, qkvt, "%wqkv", ty(h, 3 * lh), act, " {transpose_b}")
    d_wqkv = matmul(ln1, act, d_qkv, qkvt, ty(h, 3 * lh), " {transpose_a}")
    d_ln1_sum = all_reduce(d_ln1, act)
    counter[0] += 1
    lng1 = counter[0]
    lines.append("  %%v%d:3 = dist.layer_norm_grad %s, %%x, %%g1 : (%s, %s, %s) -> (%s, %s, %s)"
                 % (lng1, d_ln1_sum, act, act, vec, act, vec, vec))
    d_x = add("%%v%d#0" % lng1, d_res1, act)
    results += [(d_x, act), (d_wqkv, ty(h, 3 * lh)), (d_wo, ty(lh, h)), (d_w1, ty(h, lf)),
                (d_w2, ty(lf, h)), ("%%v%d#1" % lng1, vec), ("%%v%d#2" % lng1, vec),
                ("%%v%d#1" % lng2, vec), ("%%v%d#2" % lng2, vec)]

print("func.func @main(%s) -> (%s) {" % (", ".join("%s: %s" % x for x in args),
                                         ", ".join(r[1] for r in results)))
print("\n".join(lines))
print("  return %s : %s" % (", ".join(r[0] for r in results), ", ".join(r[1] for r in results)))
print("}")
