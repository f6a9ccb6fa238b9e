# xmpp-tools: build, install and uninstall; regenerate and check the man pages and completions.
#
#   make                                   release build, Swift standard library linked statically
#   make install PREFIX=/usr/local         the programs (one executable, xmpp-tools, and each program's
#                                          name a link to it), man pages, completions (DESTDIR honoured)
#   make install-strip                     the same with the program stripped of its symbols
#   make uninstall PREFIX=/usr/local       removes exactly what install put there
#   make docs                              rewrites man/ and completions/ from the command specs
#   make check-docs                        fails when man/ or completions/ differ from the specs
#   make deb                               xmpp-tools_VERSION_ARCH.deb (scripts/make-deb; lintian-clean)
#
# Variables: PREFIX, DESTDIR, BINDIR, LIBEXECDIR (xmpp-tools/xmpp-tools-slips, the slip printer
# xmpp-register handout runs, and xmpp-tools/xmpp-tools-http, the HTTPS program of shared-groups
# --apply; found as ../libexec/xmpp-tools/ from BINDIR), MANDIR, BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR;
# SWIFT (the swift driver); SWIFTFLAGS (added to every swift command, e.g.
# SWIFTFLAGS="--scratch-path /tmp/build"); LDFLAGS (-Wl,… linker options, default
# "-Wl,-z,relro -Wl,-z,now"); BUILDDIR=DIR installs programs already built in DIR without building.

PREFIX      ?= /usr/local
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
LIBEXECDIR  ?= $(PREFIX)/libexec
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

SWIFT      ?= swift
SWIFTFLAGS ?=
# Linker options, as dpkg-buildflags gives them (-Wl,… words only): by default Debian's hardening,
# full RELRO (relocations read-only after start-up, symbols bound at once). Passed to the
# linker through swift build's -Xlinker; they change only the link step.
LDFLAGS    ?= -Wl,-z,relro -Wl,-z,now
comma      := ,
LINKFLAGS   = $(foreach word,$(subst $(comma), ,$(patsubst -Wl$(comma)%,%,$(filter -Wl$(comma)%,$(LDFLAGS)))),-Xlinker $(word))
RELEASE     = -c release --static-swift-stdlib $(LINKFLAGS)
INSTALL    ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 755
INSTALL_DATA    ?= $(INSTALL) -m 644
BUILDDIR   ?=

# The programs: one per generated section 1 page, that is one per spec in AllSpecs
# (Sources/XMPPTools/Specs/AllSpecs.swift). A new tool needs only `make docs`.
TOOLS := $(sort $(basename $(notdir $(wildcard man/*.1))))
PAGES7 := $(wildcard man/*.7)

# Where the release programs are: BUILDDIR, or what swift reports (asked only when installing).
BIN = $(or $(BUILDDIR),$(shell $(SWIFT) build $(SWIFTFLAGS) $(RELEASE) --show-bin-path))

.PHONY: all build bindir install install-strip uninstall docs check-docs deb

all: build

build:
	$(SWIFT) build $(SWIFTFLAGS) $(RELEASE)

# Where `make build` puts the programs (scripts/make-deb packages them from there).
bindir:
	@echo '$(BIN)'

install: $(if $(BUILDDIR),,build)
	@test -n "$(TOOLS)" || { echo "no man/*.1 pages: run 'make docs' first" >&2; exit 1; }
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)'
	$(INSTALL_PROGRAM) '$(BIN)/xmpp-tools' '$(DESTDIR)$(BINDIR)/'
	for tool in $(TOOLS); do ln -sf xmpp-tools '$(DESTDIR)$(BINDIR)/'"$$tool"; done
	$(INSTALL) -d '$(DESTDIR)$(LIBEXECDIR)/xmpp-tools'
	$(INSTALL_PROGRAM) '$(BIN)/xmpp-tools-slips' '$(BIN)/xmpp-tools-http' '$(DESTDIR)$(LIBEXECDIR)/xmpp-tools/'
	$(INSTALL) -d '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man7'
	$(INSTALL_DATA) $(TOOLS:%=man/%.1) '$(DESTDIR)$(MANDIR)/man1/'
	$(INSTALL_DATA) $(PAGES7) '$(DESTDIR)$(MANDIR)/man7/'
	$(INSTALL) -d '$(DESTDIR)$(BASHCOMPDIR)' '$(DESTDIR)$(ZSHCOMPDIR)' '$(DESTDIR)$(FISHCOMPDIR)'
	$(INSTALL_DATA) $(TOOLS:%=completions/bash/%) '$(DESTDIR)$(BASHCOMPDIR)/'
	$(INSTALL_DATA) $(TOOLS:%=completions/zsh/_%) '$(DESTDIR)$(ZSHCOMPDIR)/'
	$(INSTALL_DATA) $(TOOLS:%=completions/fish/%.fish) '$(DESTDIR)$(FISHCOMPDIR)/'

install-strip:
	$(MAKE) INSTALL_PROGRAM='$(INSTALL_PROGRAM) -s' install

uninstall:
	rm -f $(TOOLS:%='$(DESTDIR)$(BINDIR)/%') '$(DESTDIR)$(BINDIR)/xmpp-tools'
	rm -f '$(DESTDIR)$(LIBEXECDIR)/xmpp-tools/xmpp-tools-slips' '$(DESTDIR)$(LIBEXECDIR)/xmpp-tools/xmpp-tools-http'
	-rmdir '$(DESTDIR)$(LIBEXECDIR)/xmpp-tools' 2>/dev/null
	rm -f $(TOOLS:%='$(DESTDIR)$(MANDIR)/man1/%.1') $(PAGES7:man/%='$(DESTDIR)$(MANDIR)/man7/%')
	rm -f $(TOOLS:%='$(DESTDIR)$(BASHCOMPDIR)/%') $(TOOLS:%='$(DESTDIR)$(ZSHCOMPDIR)/_%') \
	      $(TOOLS:%='$(DESTDIR)$(FISHCOMPDIR)/%.fish')

docs:
	$(SWIFT) run $(SWIFTFLAGS) xmpp-tools-docgen .

check-docs:
	$(SWIFT) run $(SWIFTFLAGS) xmpp-tools-docgen --check .

deb:
	scripts/make-deb $(if $(BUILDDIR),--builddir '$(BUILDDIR)')
