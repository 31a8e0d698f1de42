"""Card identity: the Twin It same-pattern judge and the number/colour reader (ONNX, onnxruntime).

>>> judge = PatternJudge()            # doctest: +SKIP
>>> judge.compare(crop_a, crop_b)     # doctest: +SKIP
Judgement(verdict='same', p_same=0.9993)
"""

from vision.identity.judge import Judgement, PatternJudge
from vision.identity.reader import NumberReader, Reading

__all__ = ["Judgement", "NumberReader", "PatternJudge", "Reading"]
