#!/usr/bin/python3
"""Writes the binary ONNX models of the importer's lit tests.

ONNX 1.12's text syntax cannot name nodes or keep external data, so the few
tests that need those use these small files (regenerate with
/usr/bin/python3 make_models.py in this folder; the output is deterministic).
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def weight(name, shape, seed):
    values = np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)
    return numpy_helper.from_array(values, name)


def mlp():
    """Two dense layers with named nodes ("layers.N/..."), float weights as
    initializers, an int64 shape initializer and a symbolic batch size."""
    nodes = [
        helper.make_node("MatMul", ["input", "layers.0.weight"], ["h0"],
                         name="/layers.0/fc/MatMul"),
        helper.make_node("Add", ["h0", "layers.0.bias"], ["h1"],
                         name="/layers.0/fc/Add"),
        helper.make_node("Relu", ["h1"], ["h2"], name="/layers.0/act/Relu"),
        helper.make_node("MatMul", ["h2", "layers.1.weight"], ["h3"],
                         name="/layers.1/fc/MatMul"),
        helper.make_node("Add", ["h3", "layers.1.bias"], ["logits"],
                         name="/layers.1/fc/Add"),
        helper.make_node("Reshape", ["logits", "flat_shape"], ["flat"],
                         name="/head/Reshape"),
    ]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 4]),
         helper.make_tensor_value_info("flat", TensorProto.FLOAT, ["elements"])],
        [weight("layers.0.weight", (8, 16), 1), weight("layers.0.bias", (16,), 2),
         weight("layers.1.weight", (16, 4), 3), weight("layers.1.bias", (4,), 4),
         numpy_helper.from_array(np.array([-1], dtype=np.int64), "flat_shape")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def unsupported():
    """Named nodes of ops the importer does not map."""
    nodes = [
        helper.make_node("Abs", ["x"], ["a"], name="encoder/abs"),
        helper.make_node("Neg", ["a"], ["b"], name="encoder/neg"),
        helper.make_node("Floor", ["b"], ["c"], name="encoder/floor"),
        helper.make_node("Abs", ["c"], ["y"], name="decoder/abs"),
    ]
    graph = helper.make_graph(
        nodes, "unsupported",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def mismatch():
    """An initializer named like one of mlp()'s, with another shape."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "layers.0.weight"], ["y"])], "mismatch",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])],
        [weight("layers.0.weight", (2, 2), 5)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def main():
    onnx.save(mlp(), "mlp.onnx")
    onnx.save(unsupported(), "unsupported.onnx")
    onnx.save(mismatch(), "mismatch.onnx")
    # The same MLP with its weights in a side file (as models > 2 GiB must).
    # onnx.save appends to an existing data file.
    if os.path.exists("mlp_external.data"):
        os.remove("mlp_external.data")
    model = mlp()
    onnx.save(model, "mlp_external.onnx", save_as_external_data=True,
              all_tensors_to_one_file=True, location="mlp_external.data",
              size_threshold=0)


if __name__ == "__main__":
    main()
