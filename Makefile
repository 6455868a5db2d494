# SPDX-License-Identifier: GPL-2.0
#
# blkload top-level Makefile.
#
#   make                 module + CLI
#   make module          blkload.ko against KDIR (W=1 C=1 are passed to Kbuild)
#   make userspace       the blkload CLI
#   make install         module into /lib/modules/$(KVER)/extra (+ depmod), CLI into
#                        $(SBINDIR), blkload(8) and the bash completion
#   make uninstall       removes what install put there
#   make man             blkload(8) from the CLI's own help (build/man/blkload.8)
#   make deb             Debian packages blkload and blkload-dkms (build/deb/)
#   make dkms-install    the module's source into /usr/src/blkload-VERSION, built
#                        and installed by DKMS for $(KVER); make dkms-uninstall
#   make deps            install every Debian package build, tests and demo need
#   make check           unit tests, build, lint, guest selftests; "N passed, N failed"
#   make check-debug     the guest selftests on a KASAN/lockdep/kmemleak 6.12 kernel
#   make check-fresh     make demo and make check on a fresh Debian 12 root (mmdebstrap)
#   make check-pkg       the packaging lane: make dkms-install and make deb's
#                        packages installed in the guest (two DKMS builds)
#   make check-rt        the unload and job-end selftests on Debian's PREEMPT_RT 6.1
#   make generate        regenerate the uAPI header and policy from the netlink spec
#   make vm              a shell in the test guest (scripts/vm)
#   make bench           blkload vs fio on null_blk in the guest (scripts/bench.sh)
#   make matrix          the module, W=1, against 6.1, 6.1-rt and 6.12 (scripts/build-matrix.sh)
#
# Kbuild reads the file named Kbuild, so this Makefile is only the user's entry point.

# KDIR (the kernel tree to build against) and KVER (the release its modules
# install under) are found when a recipe uses them (scripts/kdir.sh says
# how), not when this file is read: "make demo" and "make deps" install the
# headers in the same run, and a value fixed before that would be empty. An
# empty KDIR or KVER, from the environment or the command line, counts as
# unset; only a value the user gave is exported to scripts and sub-makes.
ifeq ($(strip $(KDIR)),)
override KDIR = $(shell $(CURDIR)/scripts/kdir.sh)
unexport KDIR
else
export KDIR
endif
ifeq ($(strip $(KVER)),)
override KVER = $(shell $(CURDIR)/scripts/kdir.sh --kver $(KDIR))
unexport KVER
else
export KVER
endif
DESTDIR ?=
SBINDIR ?= /usr/local/sbin
MANDIR ?= /usr/local/share/man
COMPDIR ?= /usr/local/share/bash-completion/completions
BUILD ?= $(CURDIR)/build

SPEC := Documentation/netlink/specs/blkload.yaml
GEN := include/uapi/linux/blkload.h module/nl_gen.c module/nl_gen.h userspace/nl_names.h
KCOMPAT_DIR = $(CURDIR)/.kcompat/$(KVER)

export BUILD

.PHONY: all module userspace clean clean-module install uninstall man deb dkms-install \
	dkms-uninstall deps check generate check-generated \
	checkpatch sparse unit selftests vm kcompat bench check-debug check-fresh check-pkg check-rt \
	demo matrix

all: module userspace

kdir-check:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "blkload: no kernel build tree (KDIR='$(KDIR)'); run 'make deps' or set KDIR=" >&2; \
		exit 1; fi

kcompat: kdir-check
	@scripts/kcompat.sh $(KDIR) $(KCOMPAT_DIR)

module: kcompat
	$(MAKE) -C $(KDIR) M=$(CURDIR) BLKLOAD_KCOMPAT_DIR=$(KCOMPAT_DIR) modules

userspace:
	$(MAKE) -C userspace

generate:
	python3 scripts/nlgen.py uapi $(SPEC) > include/uapi/linux/blkload.h
	python3 scripts/nlgen.py policy $(SPEC) > module/nl_gen.c
	python3 scripts/nlgen.py policy-h $(SPEC) > module/nl_gen.h
	python3 scripts/nlgen.py names $(SPEC) > userspace/nl_names.h

check-generated:
	python3 scripts/nlgen.py check $(SPEC) $(GEN)

man: userspace
	@mkdir -p $(BUILD)/man
	python3 scripts/gen-man.py userspace/blkload $(BUILD)/man/blkload.8

install: all man
	@[ -n "$(KVER)" ] || { echo "blkload: no kernel release (KVER) for $(KDIR); set KVER=" >&2; exit 1; }
	install -D -m 0644 module/blkload.ko $(DESTDIR)/lib/modules/$(KVER)/extra/blkload.ko
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); else depmod -a -b $(DESTDIR) $(KVER); fi
	@[ -n "$(DESTDIR)" ] || [ "$(KVER)" = "$$(uname -r)" ] || echo "blkload: installed for $(KVER), \
	but $$(uname -r) runs: modprobe finds it once $(KVER) boots (or build with KDIR= of the running kernel's headers)" >&2
	install -D -m 0755 userspace/blkload $(DESTDIR)$(SBINDIR)/blkload
	ln -sf blkload $(DESTDIR)$(SBINDIR)/blkload-fio
	install -D -m 0644 $(BUILD)/man/blkload.8 $(DESTDIR)$(MANDIR)/man8/blkload.8
	userspace/blkload completion >$(BUILD)/blkload.bash
	install -D -m 0644 $(BUILD)/blkload.bash $(DESTDIR)$(COMPDIR)/blkload

uninstall:
	@[ -n "$(KVER)" ] || { echo "blkload: no kernel release (KVER); set KVER=" >&2; exit 1; }
	rm -f $(DESTDIR)/lib/modules/$(KVER)/extra/blkload.ko $(DESTDIR)$(SBINDIR)/blkload \
		$(DESTDIR)$(SBINDIR)/blkload-fio \
		$(DESTDIR)$(MANDIR)/man8/blkload.8 $(DESTDIR)$(COMPDIR)/blkload
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); else depmod -a -b $(DESTDIR) $(KVER); fi

BL_VERSION = $(shell sed -n 's/^\#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' include/blkload/version.h)

deb:
	scripts/packaging/make-deb.sh $(BUILD)/deb

dkms-install:
	@[ -n "$(KVER)" ] || { echo "blkload: no kernel release (KVER); set KVER=" >&2; exit 1; }
	rm -rf $(DESTDIR)/usr/src/blkload-$(BL_VERSION)
	scripts/packaging/stage-dkms.sh $(DESTDIR)/usr/src/blkload-$(BL_VERSION)
	dkms install -m blkload -v $(BL_VERSION) -k $(KVER)

dkms-uninstall:
	-dkms remove -m blkload -v $(BL_VERSION) --all
	rm -rf $(DESTDIR)/usr/src/blkload-$(BL_VERSION)

# The module's build products only (DKMS's CLEAN).
clean-module:
	-[ -f "$(KDIR)/Makefile" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf .kcompat

clean:
	-[ -f "$(KDIR)/Makefile" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	rm -rf .kcompat $(BUILD)

deps:
	scripts/install-deps.sh

unit:
	$(MAKE) -C userspace unit

checkpatch:
	scripts/lint.sh checkpatch

sparse: kcompat
	KDIR=$(KDIR) scripts/lint.sh sparse

selftests: all
	$(MAKE) -C selftests

vm: all
	scripts/vm

# blkload against fio on null_blk in one guest run; ratios, not a test.
bench: all
	scripts/vm -t 1800 -- scripts/bench.sh

# krbd against librbd in the test guest, from a fresh machine (about 5 min).
demo:
	@scripts/demo.sh

check:
	@scripts/check.sh

check-debug:
	@scripts/check-debug.sh

check-fresh:
	@scripts/check-fresh.sh

# The unload and job-end tests on Debian's PREEMPT_RT kernel (about 5 min).
check-rt:
	@scripts/check-rt.sh

# DKMS builds the module in the guest twice, under emulation 5-10 minutes:
# a lane of its own (selftests/budget), not part of make check.
check-pkg: deps
	@$(MAKE) -s deb
	@CHECK_HOST=0 CHECK_LANES=pkg CHECK_LOGS=$(CURDIR)/build/check-pkg scripts/check.sh

matrix:
	scripts/build-matrix.sh
