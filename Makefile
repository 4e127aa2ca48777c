# airlock build. `make build` writes bin/airlock and the plugins next to it;
# airlock finds its plugins beside its own binary, so bin/ works as it is.

GO      ?= go
PREFIX  ?= $(HOME)/.local
BIN     := bin
GOOS    ?= $(shell $(GO) env GOOS)
LDFLAGS := -s -w
GOFLAGS_BUILD := -trimpath -ldflags '$(LDFLAGS)'

PLUGINS := airlock-broker airlock-assessor airlock-sandbox-linux airlock-sandbox-linux-launcher
ifeq ($(GOOS),darwin)
PLUGINS := airlock-broker airlock-assessor airlock-sandbox-macos
endif

.PHONY: all build install test proto proto-check demo bench vet clean escape

all: build

build:
	@mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock ./cmd/host
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock-broker ./cmd/broker
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock-assessor ./plugins/assessor
ifeq ($(GOOS),darwin)
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock-sandbox-macos ./plugins/sandbox-macos
else
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock-sandbox-linux ./plugins/sandbox-linux
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/airlock-sandbox-linux-launcher ./plugins/sandbox-linux/launcher
endif

# install copies the binaries together, so the host finds its plugins
# beside itself with no configuration.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN)/airlock $(addprefix $(BIN)/,$(PLUGINS)) $(DESTDIR)$(PREFIX)/bin/

# demo builds airlock and runs its main job on built-in defaults: one write
# inside the workspace (allowed) and one outside it (blocked).
demo: build
	@./scripts/demo.sh $(BIN)/airlock

# test is the README's test command: vet on both OSes, then every test with
# the race detector. Tests that need user namespaces, a PTY or root skip
# when those are missing, unless AIRLOCK_REQUIRE names them (CI does).
test: build vet
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...

# proto regenerates the committed Go code from sdk/proto with pinned
# generators (tools/go.mod) and the system protoc.
proto:
	@mkdir -p $(BIN)/tools
	cd tools && $(GO) build -o ../$(BIN)/tools/ google.golang.org/protobuf/cmd/protoc-gen-go google.golang.org/grpc/cmd/protoc-gen-go-grpc
	rm -rf sdk/internal/pb/sandboxv1 sdk/internal/pb/assessorv1
	protoc -I sdk/proto \
		--plugin=protoc-gen-go=$(BIN)/tools/protoc-gen-go \
		--plugin=protoc-gen-go-grpc=$(BIN)/tools/protoc-gen-go-grpc \
		--go_out=. --go_opt=module=github.com/airlock-dev/airlock \
		--go-grpc_out=. --go-grpc_opt=module=github.com/airlock-dev/airlock \
		sdk/proto/airlock/sandbox/v1/sandbox.proto sdk/proto/airlock/assessor/v1/assessor.proto

# proto-check fails when the committed generated code is stale.
proto-check: proto
	@git diff --exit-code --stat -- sdk/internal/pb || { echo "generated code is stale: run 'make proto' and commit" >&2; exit 1; }
	@test -z "$$(git status --porcelain -- sdk/internal/pb)" || { echo "generated code is not committed: run 'make proto' and commit" >&2; exit 1; }

bench: build
	./bench/exec.sh
	./bench/files.sh
	./bench/check.sh
	./bench/shell.sh
	./bench/assess.sh

# escape runs the shared sandbox escape suite through `airlock exec`, as
# the current user and, when run as root, also as uid 65534.
escape: build
	./scripts/escape.sh $(BIN)

clean:
	rm -rf $(BIN)
