# Focal's everyday commands. `make demo` and `make test` are the two in the README.
SWIFT ?= swift
SAMPLE ?= Samples/Media/document.mp4
OUTPUT ?= out/overlay.mp4

.PHONY: demo test deps build bench fuzz spec-check browser-check replicas-check consumer-check docs sample-media page-model page-model-high dev-sets clean

## Install what is missing, build the focal command, and run it on the bundled sample.
demo: deps
	$(SWIFT) build -c release --product focal
	@mkdir -p $(dir $(OUTPUT))
	.build/release/focal overlay $(SAMPLE) -o $(OUTPUT)
	@echo "The annotated video is at $(OUTPUT)"

## Install what is missing and run the whole test suite; then check that the library's rooms
## depend on each other one way only (scripts/rooms-check.py).
## The suites that talk to a live server (in process, or `focal serve` as a subprocess) run in a
## second process of their own: they hold deadlines of seconds, and in one process with every
## suite the detection tests' CPU-bound work holds the two threads Swift's cooperative pool has
## on two cores, so the server's and the client's tasks waited tens of seconds to run (a CI run
## on a slowed machine missed a 30 s job timeout and a 20 s drain delay that way).
LIVE_SERVER_TESTS ?= FocalServiceTests|ServeCLITests
test: deps
	$(SWIFT) test --skip "$(LIVE_SERVER_TESTS)"
	$(SWIFT) test --skip-build --filter "$(LIVE_SERVER_TESTS)"
	scripts/rooms-check.py

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

## libFuzzer with AddressSanitizer over the service's request path, FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= request-body image-upload video-upload request-head
fuzz: deps
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SEED=$(FUZZ_SEED) scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## Schemathesis against a live server over docs/openapi.yaml: every answer as documented, no 5xx.
SPEC_EXAMPLES ?= 2000
spec-check: deps
	@scripts/install-deps.sh --spec
	scripts/spec-check.sh $(SPEC_EXAMPLES)

## The scanner page at / in Debian's chromium, headless, driven by Playwright (PyPI) against a live
## focal serve: keys, photos and their corners, dragging, enhancement, order, PDF, the camera.
BROWSER_VENV ?= .build/browser-venv
browser-check: deps
	@scripts/install-deps.sh --browser
	@test -x $(BROWSER_VENV)/bin/python || python3 -m venv $(BROWSER_VENV)
	@$(BROWSER_VENV)/bin/python -c "import playwright, PIL" 2>/dev/null || \
		$(BROWSER_VENV)/bin/pip install --quiet "playwright==1.65.2" "pillow==12.0.0"
	$(SWIFT) build --product focal
	$(BROWSER_VENV)/bin/python scripts/browser-check.py .build/debug/focal $(BROWSER_ARGS)

## Two replicas behind nginx sharing API keys and their scans, in a folder and then in a real
## PostgreSQL server: keys, shared scans, a rolling SIGTERM under load with no request lost,
## SIGKILL losing no answered scan, a database gone and back, and throughput against in-process.
REPLICAS_CONFIG ?= debug
replicas-check: deps
	@scripts/install-deps.sh --replicas
	$(SWIFT) build -c $(REPLICAS_CONFIG) --product focal
	$(SWIFT) build -c $(REPLICAS_CONFIG) --product FocalBenchmarks
	scripts/replicas-check.py .build/$(REPLICAS_CONFIG)/focal --benchmarks .build/$(REPLICAS_CONFIG)/FocalBenchmarks

## Focal's DocC documentation, failing on a warning or an undocumented public symbol.
docs: deps
	scripts/docs-check.sh

## Samples/ScanAPhoto, a package that depends on Focal, built outside this checkout and run from
## another folder with no FOCAL_MODELS: the models travel with the library.
consumer-check: deps
	scripts/consumer-check.sh

## Speed and memory against OpenCV's idioms and ffmpeg, measured in the same run.
bench:
	@scripts/install-deps.sh --bench
	scripts/bench.sh

## The document detector's development and held-apart sets, made and scored at .high and .low
## (scripts/eval/dev-sets.py; needs the evaluation kit, SHARED/eval; installs Debian's python3-opencv,
## ffmpeg and the fonts its sets are rendered with).
## SETS= picks some: `make dev-sets SETS="standing-1 held"`; `scripts/eval/dev-sets.py --list` lists them.
SHARED ?= ../shared
dev-sets: deps
	$(SWIFT) build -c release --product focal
	/usr/bin/python3 scripts/eval/dev-sets.py --shared $(SHARED) $(SETS)

## Retrain the page detector both accuracies run (Sources/Focal/Models/page-detector.onnx; see
## Models/page-detector/MODEL_CARD.md): its teacher on 36,000 scenes of every
## kind, three epochs (Models/page-detector/all-folders-high.onnx, about 2 hours 30 minutes on 2 cores; run it again
## to carry on a training stopped halfway), then the teacher's first blocks cut and taught by it (about 70 minutes),
## then that network fine-tuned on the hard kinds, scans filling the image among them (about 55 minutes), then
## fine-tuned again with a stack's lower sheets as paper and a third of it kept (about 55 minutes), then that
## fine-tuned on white sheets under standing objects, scans and white-framed windows (about 50 minutes).
## `make page-model-high` is its name until 0.7.67, when only .high ran it. `Models/page-detector/train.sh` alone
## makes the network .low ran until then (16,000 scenes, about 60 minutes), into its work folder.
page-model page-model-high:
	FOLDERS=all Models/page-detector/train.sh
	STUDENT=1 BLOCKS=4 Models/page-detector/train.sh
	HARD=1 Models/page-detector/train.sh
	STACK_TOP=1 HARD=1 Models/page-detector/train.sh
	WHITE=1 INSTALL=1 Models/page-detector/train.sh

## Re-render Samples/Media with Focal itself.
sample-media: deps
	$(SWIFT) run -c release MakeSampleMedia Samples/Media

clean:
	rm -rf .build out
