"""Reads the memory breakdown of dist-sim reports (docs/dist-sim.md).

memory-breakdown.py state REPORT BYTES_PER_ELEMENT [UNSHARDED_REPORT]
    Model state per parameter at the peak of device 0: weights, gradients
    and optimizer state bytes over the parameter count (weights bytes over
    the parameters' element size, in UNSHARDED_REPORT when given: ZeRO-3
    shards the weights); Adam's 4-byte step counter is left out.
memory-breakdown.py activations SMALL L_SMALL LARGE L_LARGE s b h a t FORM TOL
    Stashed activation bytes per layer of the marginal layer (LARGE minus
    SMALL, per layer) at device 0's peak against Korthikanti et al. 2022's
    closed form FORM (with dropout, dist-gen's default): `tp`
    s*b*h*(10 + 24/t + 5*a*s/(h*t)), `sp` (tensor + sequence parallel)
    s*b*h*(34/t + 5*a*s/(h*t)), `selective-sp` (with selective recompute)
    s*b*h*34/t, `full` 2*s*b*h.
"""
import json
import sys


def peak(path):
    return json.load(open(path))["devices"][0]["memory_at_peak"]


if sys.argv[1] == "state":
    at_peak, element = peak(sys.argv[2]), int(sys.argv[3])
    unsharded = peak(sys.argv[4]) if len(sys.argv) > 4 else at_peak
    parameters = unsharded["weights"] / element
    weights = at_peak["weights"] / parameters
    grads = at_peak["gradients"] / parameters
    state = (at_peak["optimizer_state"] - 4) / parameters
    print("model state %.2f bytes/parameter: weights %.2f, gradients %.2f, "
          "optimizer state %.2f" % (weights + grads + state, weights, grads,
                                    state))
else:
    small, small_layers = peak(sys.argv[2]), int(sys.argv[3])
    large, large_layers = peak(sys.argv[4]), int(sys.argv[5])
    s, b, h, a, t = (int(x) for x in sys.argv[6:11])
    form, tolerance = sys.argv[11], float(sys.argv[12])
    layer = (large["activations_stashed"] - small["activations_stashed"]) / (
        large_layers - small_layers)
    if form == "tp":
        expected = s * b * h * (10 + 24 / t + 5 * a * s / (h * t))
    elif form == "sp":
        expected = s * b * h * (34 / t + 5 * a * s / (h * t))
    elif form == "selective-sp":
        expected = s * b * h * 34 / t
    else:
        expected = 2 * s * b * h
    error = (layer - expected) / expected
    verdict = "within" if abs(error) <= tolerance else "OUTSIDE"
    print("%s %d%%: stashed %.1f MiB per layer, closed form %.1f MiB, "
          "error %+.2f%%" % (verdict, round(tolerance * 100), layer / 2**20,
                             expected / 2**20, error * 100))
