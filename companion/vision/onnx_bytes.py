"""Just enough of the ONNX file format to read a small network's weights and to write a copy with some weights
changed or some inner tensors made outputs, without the ``onnx`` package (which the app does not install): an
ONNX file is a protocol-buffers ``ModelProto``, and these read and write its wire format directly.

Used by ``table_look`` to adapt the face classifiers to a table: the adapted copy is handed to onnxruntime or
OpenCV as bytes. Only float32 weights stored as ``raw_data`` (as PyTorch's exporter writes them) can be read or
changed; anything else raises :class:`OnnxFormatError`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

FLOAT = 1  # TensorProto.DataType.FLOAT
_MODEL_GRAPH = 7  # ModelProto.graph
_GRAPH_NODE, _GRAPH_INITIALIZER, _GRAPH_OUTPUT = 1, 5, 12
_NODE_INPUT, _NODE_OUTPUT, _NODE_OP = 1, 2, 4
_TENSOR_DIMS, _TENSOR_TYPE, _TENSOR_NAME, _TENSOR_RAW = 1, 2, 8, 9


class OnnxFormatError(ValueError):
    """The bytes are not an ONNX network this module can read."""


@dataclass(frozen=True)
class Node:
    op: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass(frozen=True)
class Weight:
    """An initializer: its data type, shape and where its ``raw_data`` bytes lie in the file."""

    dtype: int
    dims: tuple[int, ...]
    start: int
    length: int


@dataclass(frozen=True)
class OnnxInfo:
    """The graph's nodes in order, its initializers by name, and where the graph lies in the file."""

    nodes: tuple[Node, ...]
    weights: dict[str, Weight] = field(default_factory=dict)
    graph_tag: int = 0  # offset of the graph field's tag
    graph_start: int = 0  # offset of the graph's first byte (after its length)
    graph_end: int = 0


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise OnnxFormatError("truncated or damaged network file")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def _fields(buf: bytes, start: int, end: int) -> list[tuple[int, int, int, int, int]]:
    """(field number, wire type, value or payload start, payload end, tag offset) of each field in
    ``buf[start:end]``; for varints the value is in the third place and the fourth is unused."""
    out = []
    pos = start
    while pos < end:
        tag_at = pos
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            out.append((number, wire, value, pos, tag_at))
        elif wire == 2:
            length, pos = _varint(buf, pos)
            if pos + length > end:
                raise OnnxFormatError("truncated or damaged network file")
            out.append((number, wire, pos, pos + length, tag_at))
            pos += length
        elif wire == 5:
            out.append((number, wire, pos, pos + 4, tag_at))
            pos += 4
        elif wire == 1:
            out.append((number, wire, pos, pos + 8, tag_at))
            pos += 8
        else:
            raise OnnxFormatError(f"unexpected wire type {wire}")
    if pos != end:
        raise OnnxFormatError("truncated or damaged network file")
    return out


def _text(buf: bytes, start: int, end: int) -> str:
    return buf[start:end].decode("utf-8", errors="replace")


def parse(model: bytes) -> OnnxInfo:
    """The nodes, initializers and graph span of an ONNX file's bytes."""
    graphs = [f for f in _fields(model, 0, len(model)) if f[0] == _MODEL_GRAPH and f[1] == 2]
    if len(graphs) != 1:
        raise OnnxFormatError("not an ONNX network (no graph)")
    _, _, g0, g1, tag = graphs[0]
    nodes: list[Node] = []
    weights: dict[str, Weight] = {}
    for number, wire, start, end, _tag in _fields(model, g0, g1):
        if wire != 2:
            continue
        if number == _GRAPH_NODE:
            ins: list[str] = []
            outs: list[str] = []
            op = ""
            for n, w, s, e, _t in _fields(model, start, end):
                if w == 2 and n == _NODE_INPUT:
                    ins.append(_text(model, s, e))
                elif w == 2 and n == _NODE_OUTPUT:
                    outs.append(_text(model, s, e))
                elif w == 2 and n == _NODE_OP:
                    op = _text(model, s, e)
            nodes.append(Node(op, tuple(ins), tuple(outs)))
        elif number == _GRAPH_INITIALIZER:
            name, dtype, dims, raw = "", 0, [], (0, 0)
            for n, w, s, e, _t in _fields(model, start, end):
                if n == _TENSOR_DIMS and w == 0:
                    dims.append(s)
                elif n == _TENSOR_DIMS and w == 2:  # packed dims
                    pos = s
                    while pos < e:
                        d, pos = _varint(model, pos)
                        dims.append(d)
                elif n == _TENSOR_TYPE and w == 0:
                    dtype = s
                elif n == _TENSOR_NAME and w == 2:
                    name = _text(model, s, e)
                elif n == _TENSOR_RAW and w == 2:
                    raw = (s, e - s)
            weights[name] = Weight(dtype, tuple(dims), raw[0], raw[1])
    return OnnxInfo(tuple(nodes), weights, tag, g0, g1)


def weight(model: bytes, info: OnnxInfo, name: str) -> np.ndarray:
    """The float32 initializer ``name`` as an array (a copy)."""
    w = info.weights.get(name)
    if w is None or w.dtype != FLOAT or w.length != 4 * int(np.prod(w.dims, dtype=np.int64)):
        raise OnnxFormatError(f"weight {name!r} is not a float32 tensor stored as raw data")
    return np.frombuffer(model, "<f4", count=w.length // 4, offset=w.start).reshape(w.dims).copy()


def with_weights(model: bytes, info: OnnxInfo, changes: dict[str, np.ndarray]) -> bytes:
    """A copy of the file with each named float32 initializer replaced by an array of the same shape."""
    out = bytearray(model)
    for name, array in changes.items():
        w = info.weights.get(name)
        if w is None or w.dtype != FLOAT or w.length != 4 * int(np.prod(w.dims, dtype=np.int64)):
            raise OnnxFormatError(f"weight {name!r} is not a float32 tensor stored as raw data")
        values = np.ascontiguousarray(array, "<f4")
        if values.shape != w.dims:
            raise OnnxFormatError(f"weight {name!r} is {w.dims}, not {values.shape}")
        out[w.start : w.start + w.length] = values.tobytes()
    return bytes(out)


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _encode_varint(number << 3 | 2) + _encode_varint(len(payload)) + payload


_FLOAT_TENSOR = bytes([1 << 3, FLOAT])  # TypeProto.Tensor.elem_type = FLOAT, no shape (an empty one would say rank 0)


def with_outputs(model: bytes, info: OnnxInfo, names: list[str]) -> bytes:
    """A copy of the file whose graph also outputs the float32 tensors ``names`` (inner tensors: a run can ask
    for them by name)."""
    extra = b"".join(_field(_GRAPH_OUTPUT, _field(1, n.encode()) + _field(2, _field(1, _FLOAT_TENSOR))) for n in names)
    graph = model[info.graph_start : info.graph_end] + extra
    return model[: info.graph_tag] + _field(_MODEL_GRAPH, graph) + model[info.graph_end :]
