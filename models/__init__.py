"""The ONNX models vision loads with onnxruntime, their model cards and the scripts that train them.

Training needs the optional ``train`` extra (PyTorch on the CPU); running the models never does.
"""
