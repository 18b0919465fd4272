#!/usr/bin/env bash
# Makes the seed corpora in Fuzz/Corpus: tiny, valid examples of everything the service accepts,
# and a few inputs the service must refuse. Needs ffmpeg (apt-get install ffmpeg). The seeds are
# committed, so this runs only when the set of seeds should change; inputs that libFuzzer finds
# (crashes turned regressions) are committed beside them and are not made here.
set -euo pipefail
cd "$(dirname "$0")/Corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# A small moving test pattern, so that video seeds have real motion and images real content.
pattern=(-f lavfi -i "testsrc2=size=48x32:rate=10")

# Images, one per format and flavour the decoder handles.
cd image-upload
ff "${pattern[@]}" -frames:v 1 -q:v 5 seed-baseline.jpg
ff "${pattern[@]}" -frames:v 1 -pix_fmt gray seed-gray.jpg
ff "${pattern[@]}" -frames:v 1 seed-rgb.png
ff "${pattern[@]}" -frames:v 1 -pix_fmt rgba seed-rgba.png
ff "${pattern[@]}" -frames:v 1 -pix_fmt gray16be seed-gray16.png
ff "${pattern[@]}" -frames:v 1 -pix_fmt pal8 seed-palette.png
ff "${pattern[@]}" -frames:v 1 -c:v libwebp -lossless 0 -q:v 40 seed-lossy.webp
ff "${pattern[@]}" -frames:v 1 -c:v libwebp -lossless 1 seed-lossless.webp
ff "${pattern[@]}" -frames:v 1 -pix_fmt rgb24 seed-rgb.tiff
ff "${pattern[@]}" -frames:v 1 -pix_fmt bgr24 seed-rgb.bmp
# The same JPEG with an EXIF orientation (6: turn right), spliced in after SOI.
python3 - <<'EOF'
import struct
jpeg = open("seed-baseline.jpg", "rb").read()
ifd = struct.pack("<HHHIHH", 1, 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0)
tiff = b"II*\x00" + struct.pack("<I", 8) + ifd
app1 = b"Exif\x00\x00" + tiff
open("seed-exif-orientation.jpg", "wb").write(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:])
EOF
# Refusals: a PNG header that claims 4294967295 x 4294967295 pixels; a JPEG cut after its header.
python3 - <<'EOF'
import struct, zlib
ihdr = struct.pack(">IIBBBBB", 0xFFFFFFFF, 0xFFFFFFFF, 8, 2, 0, 0, 0)
chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open("refuse-huge-header.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr))
jpeg = open("seed-baseline.jpg", "rb").read()
open("refuse-truncated.jpg", "wb").write(jpeg[: len(jpeg) // 2])
EOF
cd ..

# Videos, one per container the API accepts, with the codecs phones and encoders use.
cd video-upload
ff "${pattern[@]}" -frames:v 4 -c:v libx264 -preset ultrafast -pix_fmt yuv420p seed-h264.mp4
ff "${pattern[@]}" -frames:v 4 -c:v mpeg4 seed-mpeg4.mov
ff "${pattern[@]}" -frames:v 4 -c:v libvpx -b:v 100k seed-vp8.webm
ff "${pattern[@]}" -frames:v 4 -c:v ffv1 seed-ffv1.mkv
ff "${pattern[@]}" -frames:v 4 -c:v mjpeg -q:v 8 seed-mjpeg.avi
# Refusals: a playlist and a concat list that name a server file; an MKV with no frames.
printf '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n' >refuse-playlist.m3u8
printf 'ffconcat version 1.0\nfile /etc/hostname\n' >refuse-concat.txt
ff "${pattern[@]}" -frames:v 1 -c:v ffv1 "$work/one.mkv"
head -c 400 "$work/one.mkv" >refuse-no-frames.mkv
cd ..

# Request bodies: the first line is the Content-Type, the rest the body.
cd request-body
png=../image-upload/seed-rgb.png
jpg=../image-upload/seed-baseline.jpg
{ printf 'image/png\n'; cat "$png"; } >seed-raw-png
{ printf 'application/octet-stream\n'; cat "$jpg"; } >seed-raw-octet-stream
{ printf 'video/mp4\n'; cat ../video-upload/seed-h264.mp4; } >seed-raw-video
{
    printf 'multipart/form-data; boundary=focal-boundary\n'
    printf -- '--focal-boundary\r\nContent-Disposition: form-data; name="image"; filename="page.png"\r\nContent-Type: image/png\r\n\r\n'
    cat "$png"
    printf -- '\r\n--focal-boundary--\r\n'
} >seed-multipart-one
{
    printf 'multipart/form-data; boundary="quoted:boundary"; charset=utf-8\n'
    printf -- 'preamble\r\n--quoted:boundary\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n'
    printf -- '--quoted:boundary\r\ncontent-disposition: form-data; name="a"; filename="a.jpg"\r\ncontent-type: image/jpeg\r\n\r\n'
    cat "$jpg"
    printf -- '\r\n--quoted:boundary\r\nContent-Disposition: form-data; name="b"; filename="b.png"\r\n\r\n'
    cat "$png"
    printf -- '\r\n--quoted:boundary--\r\nepilogue'
} >seed-multipart-two
{ printf 'multipart/form-data; boundary=x\n--x\r\nContent-Disposition: form-data; name="f\xc3\xa9"\r\n\r\nbody\r\n--x--\r\n'; } >refuse-high-byte-header-name
{ printf 'multipart/form-data\n--x\r\n\r\nbody\r\n--x--\r\n'; } >refuse-no-boundary
{ printf 'text/plain\nhello'; } >refuse-text
cd ..
ls -l image-upload video-upload request-body
