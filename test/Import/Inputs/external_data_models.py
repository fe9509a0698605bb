"""Writes copies of mlp_external.onnx into DIR whose external data points where
a model must not reach (issue 14): outside the model's directory through `..`
or a symbolic link, at a special file (FIFO, /dev/zero, a directory), and one
whose `sub/../` path stays inside (accepted).

    python3 external_data_models.py INPUTS_DIR OUT_DIR
"""
import os
import shutil
import sys

import onnx


def relocate(model, location):
    for tensor in model.graph.initializer:
        for entry in tensor.external_data:
            if entry.key == "location":
                entry.value = location
    return model


def main():
    inputs, out = sys.argv[1], sys.argv[2]
    source = os.path.join(inputs, "mlp_external.onnx")

    def save(name, location):
        model = onnx.load(source, load_external_data=False)
        onnx.save(relocate(model, location), os.path.join(out, name))

    save("escape.onnx", "../" * 16 + "etc/passwd")
    os.symlink("/etc/passwd", os.path.join(out, "link.data"))
    save("link.onnx", "link.data")
    os.symlink("/dev/zero", os.path.join(out, "zero.data"))
    save("zero.onnx", "zero.data")
    os.mkfifo(os.path.join(out, "fifo.data"))
    save("fifo.onnx", "fifo.data")
    os.mkdir(os.path.join(out, "dir.data"))
    save("dir.onnx", "dir.data")
    os.mkdir(os.path.join(out, "sub"))
    shutil.copy(os.path.join(inputs, "mlp_external.data"), out)
    save("inside.onnx", "sub/../mlp_external.data")


if __name__ == "__main__":
    main()
