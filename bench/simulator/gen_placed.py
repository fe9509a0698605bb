"""Writes a placed dist training step (what dist-parallelize produces) for the
simulator benchmark, on a dp x pp x tp mesh (device id = (d*pp + s)*tp + t):
Megatron tensor parallelism inside a stage, a pipeline over stages with
sends between them (GPipe or 1F1B order), gradient accumulation over
microbatches, a data-parallel all-reduce of every gradient and SGD.

Models: DistIR's MLP presets (each layer MatMul + ReLU, MSE loss) and GPT
layers (the ops of test/Simulator/Inputs/gen_gpt_layer.py).

  gen_placed.py mlp --layers 16 --width 8192 --batch 1024 --dp 2 --tp 2 --pp 4 --microbatches 16
  gen_placed.py gpt --layers 96 --hidden 12288 --heads 96 --seq 2048 --batch 1536 ...
"""
import argparse
import sys

p = argparse.ArgumentParser()
p.add_argument("model", choices=["mlp", "gpt"])
p.add_argument("--layers", type=int, default=16)
p.add_argument("--width", type=int, default=8192, help="MLP width")
p.add_argument("--hidden", type=int, default=12288)
p.add_argument("--heads", type=int, default=96)
p.add_argument("--seq", type=int, default=2048)
p.add_argument("--batch", type=int, default=1024, help="global batch")
p.add_argument("--dp", type=int, default=1)
p.add_argument("--tp", type=int, default=1)
p.add_argument("--pp", type=int, default=1)
p.add_argument("--microbatches", type=int, default=1)
p.add_argument("--schedule", choices=["gpipe", "1f1b"], default="1f1b")
p.add_argument("--dtype", default=None)
a = p.parse_args()

dtype = a.dtype or ("f32" if a.model == "mlp" else "f16")
dp, tp, pp, m = a.dp, a.tp, a.pp, a.microbatches
if a.layers % pp or a.batch % (dp * m):
    sys.exit("layers must divide by pp and batch by dp*microbatches")
rows = a.batch // (dp * m)  # samples per microbatch per dp replica

out = []
aliases = {}


def stage_devices(s):
    return [(d * pp + s) * tp + t for d in range(dp) for t in range(tp)]


def id_list(ids):
    runs, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        runs.append(str(ids[i]) if i == j else "%d:%d" % (ids[i], ids[j] + 1))
        i = j + 1
    return "[" + ", ".join(runs) + "]"


def groups_list(groups):
    return "[" + ", ".join(id_list(g) for g in groups) + "]"


def tp_groups(s):
    return groups_list([[(d * pp + s) * tp + t for t in range(tp)] for d in range(dp)])


def dp_groups(s):
    return groups_list([[(d * pp + s) * tp + t for d in range(dp)] for t in range(tp)])


def ty(s, *shape):
    key = (s,) + shape
    if key not in aliases:
        aliases[key] = "!t%d" % len(aliases)
    return aliases[key]


def alias_defs():
    for (s, *shape), name in aliases.items():
        yield "%s = tensor<%s%s, #dist.devices<%s>>" % (
            name, "".join("%dx" % d for d in shape), dtype, id_list(stage_devices(s)))


counter = [0]


def fresh():
    counter[0] += 1
    return "%%v%d" % counter[0]


def op(text, rt, ots):
    name = fresh()
    out.append("  %s = %s : (%s) -> %s" % (name, text, ", ".join(ots), rt))
    return name


def all_reduce(x, t, groups):
    name = fresh()
    out.append("  %s = dist.all_reduce %s sum groups %s : %s -> %s" % (name, x, groups, t, t))
    return name


args = []  # (name, type)


def arg(name, t):
    args.append(("%" + name, t))
    return "%" + name


# ---------------------------------------------------------------- models
class Mlp:
    """Layer i: column-parallel when i is even, row-parallel (then
    all-reduce) when odd, as Megatron pairs them; ReLU after each."""

    def __init__(self):
        self.w = a.width

    def params(self, s, layer):
        col = layer % 2 == 0 or tp == 1
        shape = (self.w, self.w // tp) if col and tp > 1 else (self.w // tp, self.w) if tp > 1 else (self.w, self.w)
        return [arg("w%d" % layer, ty(s, *shape))]

    def io(self, s, layer):
        """(input, output) widths of layer's local activations."""
        if tp == 1:
            return self.w, self.w
        return (self.w, self.w // tp) if layer % 2 == 0 else (self.w // tp, self.w)

    def forward(self, s, layer, x, params):
        win, wout = self.io(s, layer)
        (w,) = params
        y = op("dist.matmul %s, %s" % (x, w), ty(s, rows, wout), [ty(s, rows, win), ty(s, *self.wshape(layer))])
        if tp > 1 and layer % 2 == 1:
            y = all_reduce(y, ty(s, rows, wout), tp_groups(s))
        r = op("dist.relu %s" % y, ty(s, rows, wout), [ty(s, rows, wout)])
        return r, (x, y)

    def wshape(self, layer):
        if tp == 1:
            return (self.w, self.w)
        return (self.w, self.w // tp) if layer % 2 == 0 else (self.w // tp, self.w)

    def backward(self, s, layer, dy, saved, params):
        x, y = saved
        (w,) = params
        win, wout = self.io(s, layer)
        dpre = op("dist.relu_grad %s, %s" % (dy, y), ty(s, rows, wout), [ty(s, rows, wout)] * 2)
        dw = op("dist.matmul %s, %s {transpose_a}" % (x, dpre), ty(s, *self.wshape(layer)),
                [ty(s, rows, win), ty(s, rows, wout)])
        dx = op("dist.matmul %s, %s {transpose_b}" % (dpre, w), ty(s, rows, win),
                [ty(s, rows, wout), ty(s, *self.wshape(layer))])
        if tp > 1 and layer % 2 == 0:
            dx = all_reduce(dx, ty(s, rows, win), tp_groups(s))
        return dx, [dw]

    def act(self, s):
        return ty(s, rows, self.w)

    def loss(self, s, y):
        target = self.target
        l = op("dist.mse_loss %s, %s" % (y, target), ty(s), [self.act(s)] * 2)
        seed = self.seed
        d = op("dist.mse_loss_grad %s, %s, %s" % (seed, y, target), self.act(s), [ty(s), self.act(s), self.act(s)])
        return l, d


class Gpt:
    """One transformer layer per `layer`, Megatron tensor parallel; the
    embedding and the loss head are left out (a mean-square loss on the
    last hidden state stands in for the head)."""

    def __init__(self):
        self.h, self.heads = a.hidden, a.heads
        self.tokens = rows * a.seq
        self.lh, self.lf = self.h // tp, 4 * self.h // tp
        self.hd = self.h // self.heads
        self.lheads = self.heads // tp

    def params(self, s, l):
        h, lh, lf = self.h, self.lh, self.lf
        return [arg("g1_%d" % l, ty(s, h)), arg("b1_%d" % l, ty(s, h)),
                arg("wqkv_%d" % l, ty(s, h, 3 * lh)), arg("wo_%d" % l, ty(s, lh, h)),
                arg("g2_%d" % l, ty(s, h)), arg("b2_%d" % l, ty(s, h)),
                arg("w1_%d" % l, ty(s, h, lf)), arg("w2_%d" % l, ty(s, lf, h))]

    def act(self, s):
        return ty(s, self.tokens, self.h)

    def to_heads(self, s, x):
        T, lh, hd, lhe = self.tokens, self.lh, self.hd, self.lheads
        x = op("dist.reshape %s {shape = array<i64: %d, %d, %d, %d>}" % (x, rows, a.seq, lhe, hd),
               ty(s, rows, a.seq, lhe, hd), [ty(s, T, lh)])
        x = op("dist.transpose %s {permutation = array<i64: 0, 2, 1, 3>}" % x,
               ty(s, rows, lhe, a.seq, hd), [ty(s, rows, a.seq, lhe, hd)])
        return op("dist.reshape %s {shape = array<i64: %d, %d, %d>}" % (x, rows * lhe, a.seq, hd),
                  ty(s, rows * lhe, a.seq, hd), [ty(s, rows, lhe, a.seq, hd)])

    def from_heads(self, s, x):
        T, lh, hd, lhe = self.tokens, self.lh, self.hd, self.lheads
        x = op("dist.reshape %s {shape = array<i64: %d, %d, %d, %d>}" % (x, rows, lhe, a.seq, hd),
               ty(s, rows, lhe, a.seq, hd), [ty(s, rows * lhe, a.seq, hd)])
        x = op("dist.transpose %s {permutation = array<i64: 0, 2, 1, 3>}" % x,
               ty(s, rows, a.seq, lhe, hd), [ty(s, rows, lhe, a.seq, hd)])
        return op("dist.reshape %s {shape = array<i64: %d, %d>}" % (x, T, lh), ty(s, T, lh),
                  [ty(s, rows, a.seq, lhe, hd)])

    def forward(self, s, l, x, P):
        g1, b1, wqkv, wo, g2, b2, w1, w2 = P
        T, h, lh, lf = self.tokens, self.h, self.lh, self.lf
        act, vec, qkvt, ffn = self.act(s), ty(s, h), ty(s, T, 3 * lh), ty(s, T, lf)
        sc, ph = ty(s, rows * self.lheads, a.seq, a.seq), ty(s, rows * self.lheads, a.seq, self.hd)
        scale = "%.6f" % (self.hd ** -0.5)
        ln1 = op("dist.layer_norm %s, %s, %s" % (x, g1, b1), act, [act, vec, vec])
        qkv = op("dist.matmul %s, %s" % (ln1, wqkv), qkvt, [act, ty(s, h, 3 * lh)])
        sp = fresh()
        out.append("  %s:3 = dist.split %s {axis = 1 : i64, sizes = array<i64: %d, %d, %d>} : (%s) -> (%s, %s, %s)"
                   % (sp, qkv, lh, lh, lh, qkvt, ty(s, T, lh), ty(s, T, lh), ty(s, T, lh)))
        q, k, v = [self.to_heads(s, sp + "#%d" % i) for i in range(3)]
        score = op("dist.matmul %s, %s {transpose_b}" % (q, k), sc, [ph, ph])
        probs = op("dist.softmax %s {scale = %s : f64, causal}" % (score, scale), sc, [sc])
        pd = op("dist.dropout %s {ratio = 0.1 : f64}" % probs, sc, [sc])
        ctx = op("dist.matmul %s, %s" % (pd, v), ph, [sc, ph])
        ctx2 = self.from_heads(s, ctx)
        proj = op("dist.matmul %s, %s" % (ctx2, wo), act, [ty(s, T, lh), ty(s, lh, h)])
        if tp > 1:
            proj = all_reduce(proj, act, tp_groups(s))
        d1 = op("dist.dropout %s {ratio = 0.1 : f64}" % proj, act, [act])
        r1 = op("dist.add %s, %s" % (d1, x), act, [act, act])
        ln2 = op("dist.layer_norm %s, %s, %s" % (r1, g2, b2), act, [act, vec, vec])
        f1 = op("dist.matmul %s, %s" % (ln2, w1), ffn, [act, ty(s, h, lf)])
        ge = op("dist.gelu %s" % f1, ffn, [ffn])
        f2 = op("dist.matmul %s, %s" % (ge, w2), act, [ffn, ty(s, lf, h)])
        if tp > 1:
            f2 = all_reduce(f2, act, tp_groups(s))
        d2 = op("dist.dropout %s {ratio = 0.1 : f64}" % f2, act, [act])
        o = op("dist.add %s, %s" % (d2, r1), act, [act, act])
        return o, (x, ln1, q, k, v, probs, pd, ctx2, r1, ln2, f1, ge)

    def backward(self, s, l, dy, saved, P):
        g1, b1, wqkv, wo, g2, b2, w1, w2 = P
        x, ln1, q, k, v, probs, pd, ctx2, r1, ln2, f1, ge = saved
        T, h, lh, lf = self.tokens, self.h, self.lh, self.lf
        act, vec, qkvt, ffn = self.act(s), ty(s, h), ty(s, T, 3 * lh), ty(s, T, lf)
        sc, ph = ty(s, rows * self.lheads, a.seq, a.seq), ty(s, rows * self.lheads, a.seq, self.hd)
        scale = "%.6f" % (self.hd ** -0.5)
        dd2 = op("dist.dropout %s {ratio = 0.1 : f64}" % dy, act, [act])
        dge = op("dist.matmul %s, %s {transpose_b}" % (dd2, w2), ffn, [act, ty(s, lf, h)])
        dw2 = op("dist.matmul %s, %s {transpose_a}" % (ge, dd2), ty(s, lf, h), [ffn, act])
        df1 = op("dist.gelu_grad %s, %s" % (dge, f1), ffn, [ffn, ffn])
        dln2 = op("dist.matmul %s, %s {transpose_b}" % (df1, w1), act, [ffn, ty(s, h, lf)])
        dw1 = op("dist.matmul %s, %s {transpose_a}" % (ln2, df1), ty(s, h, lf), [act, ffn])
        if tp > 1:
            dln2 = all_reduce(dln2, act, tp_groups(s))
        lg2 = fresh()
        out.append("  %s:3 = dist.layer_norm_grad %s, %s, %s : (%s, %s, %s) -> (%s, %s, %s)"
                   % (lg2, dln2, r1, g2, act, act, vec, act, vec, vec))
        dr1 = op("dist.add %s#0, %s" % (lg2, dy), act, [act, act])
        dproj = op("dist.dropout %s {ratio = 0.1 : f64}" % dr1, act, [act])
        dctx2 = op("dist.matmul %s, %s {transpose_b}" % (dproj, wo), ty(s, T, lh), [act, ty(s, lh, h)])
        dwo = op("dist.matmul %s, %s {transpose_a}" % (ctx2, dproj), ty(s, lh, h), [ty(s, T, lh), act])
        dctx = self.to_heads(s, dctx2)
        dpd = op("dist.matmul %s, %s {transpose_b}" % (dctx, v), sc, [ph, ph])
        dv = op("dist.matmul %s, %s {transpose_a}" % (pd, dctx), ph, [sc, ph])
        dpr = op("dist.dropout %s {ratio = 0.1 : f64}" % dpd, sc, [sc])
        dsc = op("dist.softmax_grad %s, %s {scale = %s : f64}" % (dpr, probs, scale), sc, [sc, sc])
        dq = op("dist.matmul %s, %s" % (dsc, k), ph, [sc, ph])
        dk = op("dist.matmul %s, %s {transpose_a}" % (dsc, q), ph, [sc, ph])
        dqkv = op("dist.concat %s, %s, %s {axis = 1 : i64}"
                  % (self.from_heads(s, dq), self.from_heads(s, dk), self.from_heads(s, dv)),
                  qkvt, [ty(s, T, lh)] * 3)
        dln1 = op("dist.matmul %s, %s {transpose_b}" % (dqkv, wqkv), act, [qkvt, ty(s, h, 3 * lh)])
        dwqkv = op("dist.matmul %s, %s {transpose_a}" % (ln1, dqkv), ty(s, h, 3 * lh), [act, qkvt])
        if tp > 1:
            dln1 = all_reduce(dln1, act, tp_groups(s))
        lg1 = fresh()
        out.append("  %s:3 = dist.layer_norm_grad %s, %s, %s : (%s, %s, %s) -> (%s, %s, %s)"
                   % (lg1, dln1, x, g1, act, act, vec, act, vec, vec))
        dx = op("dist.add %s#0, %s" % (lg1, dr1), act, [act, act])
        return dx, ["%s#1" % lg1, "%s#2" % lg1, dwqkv, dwo, "%s#1" % lg2, "%s#2" % lg2, dw1, dw2]

    def loss(self, s, y):
        target = self.target
        l = op("dist.mse_loss %s, %s" % (y, target), ty(s), [self.act(s)] * 2)
        d = op("dist.mse_loss_grad %s, %s, %s" % (self.seed, y, target), self.act(s),
               [ty(s), self.act(s), self.act(s)])
        return l, d


model = Mlp() if a.model == "mlp" else Gpt()
per_stage = a.layers // pp
params = {}  # layer -> [values]
for s in range(pp):
    for l in range(s * per_stage, (s + 1) * per_stage):
        params[l] = model.params(s, l)
x_in = arg("input", model.act(0))
model.seed = arg("seed", ty(pp - 1))
model.target = arg("target", model.act(pp - 1))
ptype = dict(args)


# ---------------------------------------------------------------- schedule
def stage_order(s):
    if a.schedule == "gpipe":
        return [(False, j) for j in range(m)] + [(True, j) for j in range(m)]
    order, f, b = [], 0, 0
    for _ in range(min(pp - s - 1, m)):
        order.append((False, f))
        f += 1
    while f < m:
        order += [(False, f), (True, b)]
        f, b = f + 1, b + 1
    while b < m:
        order.append((True, b))
        b += 1
    return order


from collections import deque

compute = [deque(stage_order(s)) for s in range(pp)]
send_q = [deque(i for i in stage_order(s) if (s > 0 if i[0] else s + 1 < pp)) for s in range(pp)]
recv_q = [deque(i for i in stage_order(s) if (s + 1 < pp if i[0] else s > 0)) for s in range(pp)]
received = {}  # (stage, is_backward, mb) -> value
produced = {}  # (stage, is_backward, mb) -> value to send
saved = {}     # (stage, mb) -> per-layer saved values
grads = {}     # layer -> list of accumulated grads
losses = []

progress = True
while progress:
    progress = False
    for s in range(pp):
        while compute[s]:
            back, j = compute[s][0]
            layers = range(s * per_stage, (s + 1) * per_stage)
            if not back:
                if s > 0 and (s, False, j) not in received:
                    break
                x = received[(s, False, j)] if s > 0 else x_in
                keep = []
                for l in layers:
                    x, sv = model.forward(s, l, x, params[l])
                    keep.append(sv)
                saved[(s, j)] = keep
                if s == pp - 1:
                    loss, dy = model.loss(s, x)
                    losses.append(loss)
                    received[(s, True, j)] = dy
                else:
                    produced[(s, False, j)] = x
            else:
                if (s, True, j) not in received:
                    break
                dy = received[(s, True, j)]
                for i, l in reversed(list(enumerate(layers))):
                    dy, gs = model.backward(s, l, dy, saved[(s, j)][i], params[l])
                    if l in grads:
                        grads[l] = [op("dist.add %s, %s" % (acc, g), ptype[pn], [ptype[pn]] * 2)
                                    for acc, g, pn in zip(grads[l], gs, params[l])]
                    else:
                        grads[l] = gs
                del saved[(s, j)]
                if s > 0:
                    produced[(s, True, j)] = dy
            compute[s].popleft()
            progress = True
        while send_q[s]:
            back, j = send_q[s][0]
            to = s - 1 if back else s + 1
            if (s, back, j) not in produced or not recv_q[to] or recv_q[to][0] != (back, j):
                break
            v = produced.pop((s, back, j))
            name = fresh()
            t_from, t_to = model.act(s), model.act(to)
            out.append("  %s = dist.send %s to %s : %s -> %s" % (name, v, id_list(stage_devices(to)), t_from, t_to))
            received[(to, back, j)] = name
            send_q[s].popleft()
            recv_q[to].popleft()
            progress = True

for s in range(pp):
    assert not compute[s] and not send_q[s], "schedule deadlocks at stage %d" % s

# Data-parallel gradient all-reduce and SGD, stage by stage.
results = [(l, ty(pp - 1)) for l in losses]
for s in range(pp):
    for l in range(s * per_stage, (s + 1) * per_stage):
        for pn, g in zip(params[l], grads[l]):
            t = ptype[pn]
            if dp > 1:
                g = all_reduce(g, t, dp_groups(s))
            results.append((op("dist.sgd_update %s, %s {lr = 0.01 : f64}" % (pn, g), t, [t, t]), t))

print("\n".join(alias_defs()))
print("func.func @main(%s) -> (%s) {" % (", ".join("%s: %s" % x for x in args),
                                         ", ".join(t for _, t in results)))
print("\n".join(out))
print("  return %s : %s" % (", ".join(v for v, _ in results), ", ".join(t for _, t in results)))
print("}")
