"""The page detector's network: a small U-Net of depthwise-separable convolutions.

Input: 1×3×S×S BGR, 0…255 (the network scales it). Output: 1×2×S×S probabilities —
channel 0 the page (amodal), channel 1 the band along each page's outline.
Only operators that OpenCV 4.6's ONNX importer reads are used (Conv, BatchNormalization, Relu,
Resize nearest, Concat, Sigmoid, Add, Mul).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeparableBlock(nn.Module):
    """Depthwise 3×3 then pointwise 1×1, each followed by batch norm; ReLU after both."""

    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        self.depthwise = nn.Conv2d(cin, cin, 3, stride, padding=dilation, dilation=dilation, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pointwise = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu(self.bn1(self.depthwise(x)))
        y = self.bn2(self.pointwise(y))
        return F.relu(y + x if self.residual else y)


class PageNet(nn.Module):
    def __init__(self, widths=(16, 32, 48, 96, 128)):
        super().__init__()
        c1, c2, c3, c4, c5 = widths
        self.stem = nn.Sequential(nn.Conv2d(3, c1, 3, 2, 1, bias=False), nn.BatchNorm2d(c1), nn.ReLU())  # 1/2
        self.enc1 = SeparableBlock(c1, c1)
        self.enc2 = nn.Sequential(SeparableBlock(c1, c2, 2), SeparableBlock(c2, c2))  # 1/4
        self.enc3 = nn.Sequential(SeparableBlock(c2, c3, 2), SeparableBlock(c3, c3))  # 1/8
        self.enc4 = nn.Sequential(SeparableBlock(c3, c4, 2), SeparableBlock(c4, c4), SeparableBlock(c4, c4, dilation=2))  # 1/16
        self.enc5 = nn.Sequential(SeparableBlock(c4, c5, 2), SeparableBlock(c5, c5, dilation=2), SeparableBlock(c5, c5, dilation=4))  # 1/32
        self.dec4 = SeparableBlock(c5 + c4, c4)
        self.dec3 = SeparableBlock(c4 + c3, c3)
        self.dec2 = SeparableBlock(c3 + c2, c2)
        self.dec1 = SeparableBlock(c2 + c1, c1)
        # at full resolution only a depthwise 3×3 and a 1×1: a dense convolution there would cost more than the rest
        self.head = nn.Sequential(nn.Conv2d(c1, c1, 3, 1, 1, groups=c1, bias=False), nn.BatchNorm2d(c1), nn.ReLU(), nn.Conv2d(c1, 2, 1))

    @staticmethod
    def up(x):
        return F.interpolate(x, scale_factor=2.0, mode="nearest")

    def forward(self, image):
        x = image * (1.0 / 255.0) - 0.5
        s1 = self.enc1(self.stem(x))
        s2 = self.enc2(s1)
        s3 = self.enc3(s2)
        s4 = self.enc4(s3)
        s5 = self.enc5(s4)
        d = self.dec4(torch.cat([self.up(s5), s4], 1))
        d = self.dec3(torch.cat([self.up(d), s3], 1))
        d = self.dec2(torch.cat([self.up(d), s2], 1))
        d = self.dec1(torch.cat([self.up(d), s1], 1))
        return self.head(self.up(d))  # logits


def parameter_count(model):
    return sum(p.numel() for p in model.parameters())
