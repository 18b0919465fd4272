#!/usr/bin/python3
"""The receipts set: the real receipts of ../shared/real/receipts (ICDAR 2019 SROIE; mostly flatbed scans
cropped to the receipt, some photos) with the corners annotated in receipt-corners.json beside this
script. The images stay where they are (a research data set, never copied into the project): OUT gets a
link to each and corners.json.

Usage: receipt-scans.py RECEIPTS OUT     (RECEIPTS: the folder holding img/NNN.jpg)
"""
import json
import os
import sys

receipts, out = sys.argv[1], sys.argv[2]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'receipt-corners.json')) as f:
    stills = json.load(f)['stills']
os.makedirs(out, exist_ok=True)
for still in stills:
    image = os.path.abspath(os.path.join(receipts, 'img', still['file']))
    if not os.path.exists(image):
        sys.exit('receipt-scans: no %s (give the folder that holds img/NNN.jpg)' % image)
    link = os.path.join(out, still['file'])
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(image, link)
with open(os.path.join(out, 'corners.json'), 'w') as f:
    json.dump({'stills': stills}, f)
print('%d receipts in %s' % (len(stills), out))
