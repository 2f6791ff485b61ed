"""A face classifier without its last layer: the network ``dice_memory.features`` describes crops with (issue #20).

    python -m tools.dicetrain.features_net companion/vision/models/dice_faces_stitched.onnx \\
        companion/vision/models/dice_faces_features.onnx

The classifier ends ``ReduceMean -> Gemm -> Softmax``; the copy ends at the mean (64 numbers a crop), with the
same weights, so a crop's description is what the classifier's last layer reads. ``features_of`` makes such a
copy for a fold's own classifier (``loso.py --memory-shots``). Needs the ``onnx`` package (a training tool).
"""

from __future__ import annotations

import argparse
from pathlib import Path

FEATURES = "features"


def features_of(classifier: Path, out: Path) -> Path:
    """Write ``classifier`` cut after its global mean to ``out`` (output ``features``, (N, D)); returns ``out``."""
    import onnx

    model = onnx.load(str(classifier))
    nodes = list(model.graph.node)
    last_mean = max(i for i, n in enumerate(nodes) if n.op_type in ("ReduceMean", "GlobalAveragePool"))
    keep = nodes[: last_mean + 1]
    mean_out = keep[-1].output[0]
    flat = onnx.helper.make_node("Flatten", [mean_out], [FEATURES], axis=1)
    used = {i for n in keep for i in n.input}
    inits = [t for t in model.graph.initializer if t.name in used]
    graph = onnx.helper.make_graph(
        [*keep, flat],
        model.graph.name + "_features",
        list(model.graph.input),
        [onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, ["n", None])],
        inits,
    )
    cut = onnx.helper.make_model(graph, opset_imports=model.opset_import, producer_name="features_net")
    cut.ir_version = model.ir_version
    onnx.checker.check_model(cut)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(cut, str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("classifier", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    print(features_of(args.classifier, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
