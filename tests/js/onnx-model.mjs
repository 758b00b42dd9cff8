// Pieces of the one-node ONNX models the onnxruntime-web cross-checks build with onnx-proto.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** ONNX's TensorProto data type of each tensor type the operators take. */
export const ELEMENT = {
  float32: onnx.TensorProto.DataType.FLOAT,
  float16: onnx.TensorProto.DataType.FLOAT16,
  bool: onnx.TensorProto.DataType.BOOL,
  int64: onnx.TensorProto.DataType.INT64,
};

/** A graph input or output: its name, tensor type and fixed dims. */
export function valueInfo(name, type, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: ELEMENT[type],
        shape: { dim: dims.map((dimValue) => ({ dimValue })) },
      },
    },
  });
}
