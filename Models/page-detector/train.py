#!/usr/bin/env python3
"""Trains the page detector on scenes from generate.py, on the CPU.

Usage: train.py --data DIR [--data DIR2 ...] --out page-detector.pt [--minutes 60] [--threads 2] [--init WEIGHTS]
                [--checkpoint RUN.ckpt]

Loss: binary cross-entropy on both channels (the outline band weighted up, being thin) plus a soft
Dice term on the page channel, so small pages count as much as large ones; with --object-weight W,
the pixels of a folder's fourth map (generate.py --object-mask: objects standing on a page where
they rise beyond it) count W times in each channel's cross-entropy. The last 4 % of the
samples are held out and their page IoU printed after each epoch. Training stops after --epochs or
--minutes, whichever comes first, with the learning rate following a cosine to zero over that budget.
With --checkpoint, a run stopped (SIGTERM, Ctrl-C, a machine shut down) is carried on by the same
command, and --minutes counts the minutes of every process that trained it.
"""
import argparse
import copy
import math
import os
import signal
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from model import PageNet, parameter_count
from model_lite import LARGEST_KERNEL, LitePageNet, fitted, inner_widths_in, load_pretrained

SIDES = (128, 160, 192, 192)  # input sizes trained on, drawn per batch; Focal runs 128 (.low) and 192 (.high)
# --lite: also shapes like those Focal gives the network (a 16:9 frame at its own proportions, 96 to
# 160 pixels along its shorter side): the scenes are 16:9 and 9:16 frames squeezed to squares, so stretched
# back the landscape ones regain their own proportions and the others are squeezed twice
LITE_SHAPES = ((96, 160), (160, 96), (128, 128), (160, 160), (192, 192), (128, 224), (224, 128), (192, 192))


def greyed(x, share, rng):
    """x with `share` of its images turned grey (the luma in all three channels), as a single-channel
    camera's frames reach the network: the generator's scenes are all in colour."""
    grey = torch.from_numpy(rng.random(len(x)) < share)
    if not grey.any():
        return x
    luma = (0.114 * x[:, 0] + 0.587 * x[:, 1] + 0.299 * x[:, 2]).unsqueeze(1).expand(-1, 3, -1, -1)
    return torch.where(grey.view(-1, 1, 1, 1), luma, x)


def softened(x, share, rng):
    """x with `share` of its images blurred at the network's own scale, as a video frame's compression
    and camera blur leave it, reduced to the input: a Gaussian of sigma 0.4-1.2 pixels, and for half of
    them a motion streak of 2-5 pixels at a random angle. The generator blurs its scenes before it
    reduces them to a third, so what the network sees is sharp."""
    chosen = rng.random(len(x)) < share
    if not chosen.any():
        return x
    k = 9
    r = np.arange(k) - k // 2
    yy, xx = np.meshgrid(r, r, indexing="ij")
    kernels = np.zeros((len(x), k, k), np.float32)
    kernels[:, k // 2, k // 2] = 1
    for i in np.flatnonzero(chosen):
        sigma = rng.uniform(0.4, 1.2)
        g = np.exp(-(xx ** 2 + yy ** 2) / (2 * sigma ** 2))
        if rng.random() < 0.5:
            length, angle = rng.uniform(2, 5), rng.uniform(0, np.pi)
            along = xx * np.cos(angle) + yy * np.sin(angle)
            across = -xx * np.sin(angle) + yy * np.cos(angle)
            streak = ((np.abs(along) <= length / 2) & (np.abs(across) <= 0.5)).astype(np.float32)
            g = F.conv2d(torch.from_numpy(g[None, None]).float(), torch.from_numpy(streak[None, None]),
                         padding=k // 2)[0, 0].numpy()
        kernels[i] = g / g.sum()
    weight = torch.from_numpy(kernels).repeat_interleave(3, 0).unsqueeze(1)  # one kernel a channel
    b, c, h, w = x.shape
    blurred = F.conv2d(F.pad(x.reshape(1, b * c, h, w), (k // 2,) * 4, mode="replicate"), weight, groups=b * c)
    return blurred.reshape(b, c, h, w)


def batches(images, targets, index, size, rng, augment, turns=False, shapes=None, grey=0.0, soften=0.0, skip=0):
    """Batches of `size` in an order of rng's, augmented; the first `skip` batches of that order are
    left out (a run carried on from its checkpoint halfway through an epoch)."""
    order = rng.permutation(index) if augment else index
    for i in range(skip * size, len(order) - (size - 1 if augment else 0), size):
        sel = np.sort(order[i:i + size])
        x = torch.from_numpy(np.ascontiguousarray(images[sel])).permute(0, 3, 1, 2).float()
        y = torch.from_numpy(np.ascontiguousarray(targets[sel])).float() / 255
        if augment:
            if rng.random() < 0.5:
                x, y = x.flip(3), y.flip(3)
            if rng.random() < (0.5 if turns else 0.3):
                x, y = x.flip(2), y.flip(2)
            if turns and rng.random() < 0.5:  # with both flips: any of the eight quarter turns and mirrorings
                x, y = x.transpose(2, 3), y.transpose(2, 3)
            # brightness, contrast and colour of the whole batch: the generator's light varies per scene
            gain = torch.from_numpy(rng.uniform(0.8, 1.2, (len(sel), 3, 1, 1))).float()
            x = (x * gain + float(rng.uniform(-20, 20))).clamp(0, 255)
            if grey > 0:
                x = greyed(x, grey, rng)
            # Several input sizes, so that the fast setting can run the same network on a smaller image.
            shape = tuple(shapes[int(rng.integers(len(shapes)))]) if shapes else (int(rng.choice(SIDES)),) * 2
            if shape != tuple(x.shape[-2:]):
                x = F.interpolate(x, size=shape, mode="area")
                soft = F.interpolate(y, size=shape, mode="bilinear", align_corners=False)
                y = torch.cat([(soft[:, :1] > 0.5).float(), (soft[:, 1:] > 0.25).float()], 1)
            if soften > 0:
                x = softened(x, soften, rng)
        yield x, y, sel


def loss_fn(logits, y, object_weight=1.0):
    """BCE on each head and Dice on the page region. With a fourth target map (generate.py
    --object-mask: objects standing on a page where they rise beyond it) and `object_weight` above 1,
    each head's BCE counts those pixels `object_weight` times: they are few, and the network painted
    them as page."""
    if logits.shape[-2:] != y.shape[-2:]:  # a head at a fraction of the input's size: its maps interpolated, as the shim does
        logits = F.interpolate(logits, size=y.shape[-2:], mode="bilinear", align_corners=False)
    weight = 1 + (object_weight - 1) * y[:, 3] if y.shape[1] > 3 and object_weight != 1 else None
    page_bce = F.binary_cross_entropy_with_logits(logits[:, 0], y[:, 0], weight=weight)
    edge_bce = F.binary_cross_entropy_with_logits(logits[:, 1], y[:, 1], weight=weight, pos_weight=torch.tensor(4.0))
    p = torch.sigmoid(logits[:, 0])
    inter = (p * y[:, 0]).sum((1, 2))
    union = p.sum((1, 2)) + y[:, 0].sum((1, 2))
    has_page = (y[:, 0].sum((1, 2)) > 0).float()
    dice = ((1 - (2 * inter + 1) / (union + 1)) * has_page).sum() / has_page.sum().clamp(min=1)
    loss = page_bce + 0.5 * edge_bce + 0.5 * dice
    if logits.shape[1] > 2 and y.shape[1] > 2:  # corner discs: sparser still than the outline
        loss = loss + 0.5 * F.binary_cross_entropy_with_logits(logits[:, 2], y[:, 2], weight=weight, pos_weight=torch.tensor(8.0))
    return loss


def joined_targets(parts):
    """The folders' target maps in one array; a folder with fewer maps than another (no --object-mask
    map, say) gets empty ones in their place."""
    maps = max(p.shape[1] for p in parts)
    if all(p.shape[1] == maps for p in parts):
        return np.asarray(np.concatenate(parts) if len(parts) > 1 else parts[0])
    joined = np.zeros((sum(len(p) for p in parts), maps) + parts[0].shape[2:], np.uint8)
    at = 0
    for p in parts:
        joined[at:at + len(p), :p.shape[1]] = p
        at += len(p)
    return joined


def distillation_loss(logits, teacher, x):
    """How far the network's maps have moved from the teacher's on the same input: binary cross-entropy
    against the teacher's probabilities, every head. A fine-tune so keeps what the network did on the
    scenes it was trained on, not only their targets: its behaviour between them (on real photographs
    it never saw) moved with any new kind of scene added before (Models/page-detector/README.md)."""
    with torch.no_grad():
        soft = torch.sigmoid(teacher(x))
    return F.binary_cross_entropy_with_logits(logits, soft)


def exported_weights(path):
    """An exported network's folded weights, named as the network's state dict names its convolutions."""
    import onnx
    from onnx import numpy_helper
    return {i.name[len("net."):]: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in onnx.load(path).graph.initializer}


def exported_lite_network(path):
    """model_lite.py's network shaped as an exported file's weights are (a network prune.py cut keeps its
    inner widths), with those weights loaded."""
    folded = exported_weights(path)
    model = LitePageNet(inner=inner_widths_in(folded))
    load_folded_weights(model, folded)
    return model


def load_onnx_weights(model, path):
    """Starts from an exported network: load_folded_weights with the file's weights."""
    load_folded_weights(model, exported_weights(path))


def load_folded_weights(model, folded):
    """Starts from an exported network's weights (exported_weights: batch norms folded into the
    convolutions): each convolution takes its folded weights and the batch norm after it becomes the
    identity plus the folded bias."""
    modules = dict(model.named_modules())
    norm_after = {"depthwise": "bn1", "pointwise": "bn2",  # model.py's blocks, and EfficientNet-Lite's (model_lite.py)
                  "_conv_stem": "_bn0", "_expand_conv": "_bn0", "_depthwise_conv": "_bn1", "_project_conv": "_bn2"}
    with torch.no_grad():
        for name, weight in folded.items():
            if not name.endswith(".weight"):
                continue
            conv_name = name[:-len(".weight")]
            conv = modules[conv_name]
            conv.weight.copy_(weight)
            bias = folded[conv_name + ".bias"]
            if conv.bias is not None:
                conv.bias.copy_(bias)
                continue
            parent, _, leaf = conv_name.rpartition(".")
            norm_name = (parent + "." if parent else "") + (norm_after[leaf] if leaf in norm_after else str(int(leaf) + 1))
            norm = modules[norm_name]
            norm.weight.fill_(1)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1 - norm.eps)


def set_training(model, frozen_norms):
    """Training mode; with frozen_norms the batch norms keep their statistics (fine-tuning a
    trained network on a small batch would otherwise replace them with the batch's)."""
    model.train()
    if frozen_norms:
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()


def evaluate(model, images, targets, index, side):
    model.eval()
    inter = union = 0.0
    fp_frames = empty = 0
    with torch.no_grad():
        for x, y, _ in batches(images, targets, index, 64, None, False):
            if side != x.shape[-1]:
                x = F.interpolate(x, size=(side, side), mode="area")
            p = F.interpolate(torch.sigmoid(model(x))[:, :1], size=y.shape[-2:], mode="bilinear", align_corners=False)[:, 0] > 0.5
            t = y[:, 0] > 0.5
            inter += (p & t).sum().item()
            union += (p | t).sum().item()
            none = t.sum((1, 2)) == 0
            empty += none.sum().item()
            fp_frames += (none & (p.sum((1, 2)) > 0.01 * p[0].numel())).sum().item()
    return inter / max(union, 1), fp_frames, empty


def averaged(states):
    """The mean of several state dicts (batch norms' statistics too; counters from the last)."""
    return {k: (sum(s[k].double() for s in states) / len(states)).to(states[-1][k].dtype)
            if states[-1][k].is_floating_point() else states[-1][k] for k in states[-1]}


# The options a checkpoint must have been saved under to be carried on: the others (--minutes,
# --threads, --checkpoint-minutes) may change between the runs.
SAME_RUN = ("data", "out", "epochs", "batch", "lr", "seed", "any_orientation", "lite", "average_last", "soften", "grey",
            "encoder_lr", "init", "largest_kernel", "learn_norms", "distill", "teacher")


class Run:
    """Where a training run has got to: its step, its place in the epoch's order, the weights kept for
    averaging and the minutes spent. With --checkpoint it is saved every --checkpoint-minutes and when
    the process is asked to stop, and loaded when the same command starts again: on two CPU cores a
    run from ImageNet outlasts a working session. A run carried on sees the same scenes in the same
    order; its flips, shapes and light are drawn afresh from where the order was drawn."""

    def __init__(self, a, model, opt, rng, saved):
        """saved: saved_state(a), the checkpoint to carry on from, or None."""
        self.a, self.model, self.opt, self.rng = a, model, opt, rng
        self.step = self.epoch = self.in_epoch = 0
        self.epochs = []  # the weights after each of the last --average-last epochs
        self.spent = 0.0  # seconds trained before this process began
        self.finished = False
        self.epoch_rng = None
        self.started = self.saved = time.time()
        self.stop_asked = False
        if not a.checkpoint:
            return
        if saved is not None:
            self.load(saved)
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, self.ask_to_stop)

    @staticmethod
    def saved_state(a):
        """The checkpoint a.checkpoint holds, if any, read before the scenes are loaded: a run saved under
        other options is refused here, and one trained to its end need not load them."""
        if not a.checkpoint or not os.path.exists(a.checkpoint):
            return None
        state = torch.load(a.checkpoint, weights_only=False)
        if state["options"] != Run.options_of(a):
            changed = sorted(k for k in SAME_RUN if state["options"].get(k) != getattr(a, k))
            sys.exit("%s was saved by a run with other options (%s): remove it to start afresh, or give the same options"
                     % (a.checkpoint, ", ".join(changed)))
        return state

    @staticmethod
    def options_of(a):
        options = {k: getattr(a, k) for k in SAME_RUN}
        if a.object_weight != 1:  # kept out otherwise, so that runs saved before it carry on
            options["object_weight"] = a.object_weight
        return options

    def load(self, state):
        self.model.load_state_dict(state["model"])
        self.opt.load_state_dict(state["optimizer"])
        self.step, self.epoch, self.in_epoch = state["step"], state["epoch"], state["in_epoch"]
        self.epochs, self.spent, self.finished, self.epoch_rng = state["epochs"], state["spent"], state["finished"], state["epoch_rng"]
        print("%s: carried on from step %d (epoch %d, %d batches into it; %.1f min trained)"
              % (self.a.checkpoint, self.step, self.epoch, self.in_epoch, self.spent / 60), flush=True)

    def save(self):
        if not self.a.checkpoint:
            return
        state = {"options": Run.options_of(self.a), "model": self.model.state_dict(), "optimizer": self.opt.state_dict(),
                 "step": self.step, "epoch": self.epoch, "in_epoch": self.in_epoch, "epochs": self.epochs,
                 "spent": self.seconds(), "finished": self.finished, "epoch_rng": self.epoch_rng}
        torch.save(state, self.a.checkpoint + ".tmp")
        os.replace(self.a.checkpoint + ".tmp", self.a.checkpoint)
        self.saved = time.time()

    def ask_to_stop(self, number, frame):
        self.stop_asked = True

    def seconds(self):
        """The seconds this run has trained, in this process and those before it."""
        return self.spent + time.time() - self.started

    def begin_epoch(self, epoch):
        """The epoch's order drawn from where the run saved its generator, if it saved one for it."""
        if epoch == self.epoch and self.epoch_rng is not None:
            self.rng.bit_generator.state = copy.deepcopy(self.epoch_rng)
        else:
            self.epoch, self.in_epoch = epoch, 0
        self.epoch_rng = copy.deepcopy(self.rng.bit_generator.state)

    def stepped(self):
        self.step += 1
        self.in_epoch += 1
        if self.stop_asked or time.time() - self.saved >= 60 * self.a.checkpoint_minutes:
            self.save()
        if self.stop_asked:
            sys.exit("stopped at step %d; the same command carries the run on from %s" % (self.step, self.a.checkpoint))

    def end_epoch(self, epoch):
        self.epoch, self.in_epoch = epoch + 1, 0
        self.epoch_rng = copy.deepcopy(self.rng.bit_generator.state)  # the next epoch's order is drawn from here
        self.save()

    def finish(self):
        self.finished = True
        self.save()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--any-orientation", action="store_true",
                    help="also train on scenes turned by quarter turns (transposed), not only mirrored: pages "
                         "photographed upside down or sideways")
    ap.add_argument("--lite", action="store_true",
                    help="model_lite.py's network: EfficientNet-Lite0's pretrained encoder under a decoder with "
                         "page, outline and corner heads (targets from generate.py --corners)")
    ap.add_argument("--average-last", type=int, default=1,
                    help="save the mean of the weights after each of the last N epochs (1: the last epoch's)")
    ap.add_argument("--soften", type=float, default=0.0,
                    help="the share of training images blurred at the input's scale (video frames, motion)")
    ap.add_argument("--object-weight", type=float, default=1.0,
                    help="how many times each head's loss counts the pixels of a folder's fourth map (generate.py "
                         "--object-mask: objects standing on a page where they rise beyond it); 1: as every pixel")
    ap.add_argument("--grey", type=float, default=0.0, help="the share of training images turned grey (single-channel cameras)")
    ap.add_argument("--encoder-lr", type=float, default=0.3, help="with --lite, the pretrained encoder's learning rate as a share of --lr")
    ap.add_argument("--checkpoint", help="keep the run's state in this file, saved every --checkpoint-minutes and when "
                                         "the run is stopped (SIGTERM, Ctrl-C); the same command started again carries "
                                         "the run on from it (only --minutes and --threads may change)")
    ap.add_argument("--checkpoint-minutes", type=float, default=10)
    ap.add_argument("--init", help="start from these weights (a .pt from this script, or an exported .onnx) "
                                   "and keep the batch norms' statistics: fine-tuning")
    ap.add_argument("--largest-kernel", type=int, default=LARGEST_KERNEL,
                    help="with --lite, the widest depthwise kernel (5: EfficientNet-Lite0's own); a .pt from --init "
                         "with wider kernels has them cut to their centres")
    ap.add_argument("--learn-norms", action="store_true",
                    help="with --init, let the batch norms learn their statistics again (after cutting kernels)")
    ap.add_argument("--distill", type=float, default=0.0,
                    help="with --init, add this weight times the distance of the maps from the starting network's "
                         "on the first --anchor-folders --data folders' scenes (learning without forgetting: the "
                         "other folders bring the new kinds); with --teacher, from the teacher's on every scene")
    ap.add_argument("--anchor-folders", type=int, default=1,
                    help="with --init and --distill, how many of the first --data folders keep the maps near the "
                         "starting network's (1: only the first)")
    ap.add_argument("--teacher", help="with --lite and --distill, the network whose maps the one trained learns on every "
                                      "scene (an exported .onnx): a network cut by prune.py learns from the uncut one")
    a = ap.parse_args()
    saved = Run.saved_state(a)
    if saved is not None and saved["finished"]:
        print("%s: this run was trained to its end already (%d steps)" % (a.checkpoint, saved["step"]), flush=True)
        return
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    image_parts = [np.load(os.path.join(d, "images.npy"), mmap_mode="r") for d in a.data]
    target_parts = [np.load(os.path.join(d, "targets.npy"), mmap_mode="r") for d in a.data]
    # into memory: a few GB at most
    images = np.asarray(np.concatenate(image_parts) if len(image_parts) > 1 else image_parts[0])
    targets = joined_targets(target_parts)
    n = len(images)
    held = max(64, n // 25)
    train_idx, val_idx = np.arange(n - held), np.arange(n - held, n)
    exported = exported_weights(a.init) if a.init and a.init.endswith(".onnx") else None
    start = torch.load(a.init) if a.init and exported is None else None
    if a.lite:  # a network cut by prune.py keeps its own inner widths, in a .pt or an exported file
        shaped_by = start if start is not None else exported
        model = LitePageNet(largest_kernel=a.largest_kernel, inner=inner_widths_in(shaped_by) if shaped_by is not None else None)
    else:
        model = PageNet()
    if a.lite and not a.init:
        print("pretrained tensors loaded: %d" % load_pretrained(model), flush=True)
    if a.init:  # also when carrying a run on: --distill's teacher is the network it started from
        if exported is not None:
            load_folded_weights(model, exported)
        else:
            model.load_state_dict(fitted(start, model) if a.lite else start)
        for side in (192, 128) if saved is None else ():
            iou, fp, empty = evaluate(model, images, targets, val_idx, side)
            print("start, input %d: held-out page IoU %.4f, empty scenes with a page > 1 %%: %d of %d" % (side, iou, fp, empty), flush=True)
    frozen_norms = bool(a.init) and not a.learn_norms
    teacher = None
    # the first folders' scenes, which --distill keeps close to the teacher
    anchor_count = sum(len(part) for part in image_parts[:a.anchor_folders])
    if a.teacher:
        if not (a.lite and a.distill > 0):
            ap.error("--teacher needs --lite and --distill: the weight of the teacher's maps")
        teacher = exported_lite_network(a.teacher)
        anchor_count = len(images)
    elif a.distill > 0:
        if not a.init:
            ap.error("--distill needs --init: the network to keep close to")
        teacher = copy.deepcopy(model)
    if teacher is not None:
        teacher.eval()
        for p in teacher.parameters():
            p.requires_grad_(False)
    set_training(model, frozen_norms)
    print("parameters: %d, training samples: %d, held out: %d" % (parameter_count(model), len(train_idx), held), flush=True)
    # model_lite.py's pretrained encoder keeps the weight file's names, which begin with "_"
    encoder, rest = [], []
    for name, p in model.named_parameters():
        (encoder if a.lite and name.startswith("_") else rest).append(p)
    groups = [{"params": rest, "share": 1.0}] + ([{"params": encoder, "share": a.encoder_lr}] if encoder else [])
    opt = torch.optim.AdamW(groups, lr=a.lr, weight_decay=1e-4)
    steps_per_epoch = len(train_idx) // a.batch
    run = Run(a, model, opt, rng, saved)
    total_steps = steps_per_epoch * a.epochs
    budget = a.minutes * 60
    for epoch in range(run.epoch, a.epochs):
        run.begin_epoch(epoch)
        running = 0.0
        for x, y, sel in batches(images, targets, train_idx, a.batch, rng, True, a.any_orientation, LITE_SHAPES if a.lite else None,
                                 a.grey, a.soften, skip=run.in_epoch):
            # cosine over whichever budget runs out first: steps or minutes
            progress = max(run.step / total_steps, run.seconds() / budget)
            if progress >= 1:
                break
            for g in opt.param_groups:
                g["lr"] = g["share"] * (a.lr * 0.5 * (1 + math.cos(math.pi * progress)) if run.step > 100 else a.lr * run.step / 100)
            logits = model(x)
            loss = loss_fn(logits, y, a.object_weight)
            if teacher is not None:
                anchored = torch.from_numpy(sel < anchor_count)
                if anchored.any():
                    loss = loss + a.distill * distillation_loss(logits[anchored], teacher, x[anchored])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            run.stepped()
            if run.step % 100 == 0:
                print("epoch %d step %d loss %.4f (%.1f min)" % (epoch, run.step, running / 100, run.seconds() / 60), flush=True)
                running = 0.0
        for side in (192, 128):
            iou, fp, empty = evaluate(model, images, targets, val_idx, side)
            print("epoch %d, input %d: held-out page IoU %.4f, empty scenes with a page > 1 %%: %d of %d"
                  % (epoch, side, iou, fp, empty), flush=True)
        set_training(model, frozen_norms)
        run.epochs.append({k: v.detach().clone() for k, v in model.state_dict().items()})
        run.epochs = run.epochs[-a.average_last:]
        torch.save(averaged(run.epochs), a.out + ".tmp")
        os.replace(a.out + ".tmp", a.out)
        run.end_epoch(epoch)
        if run.seconds() >= budget:
            break
    run.finish()
    print("done in %.1f min; saved the mean of the last %d epochs' weights" % (run.seconds() / 60, len(run.epochs)))


if __name__ == "__main__":
    main()
