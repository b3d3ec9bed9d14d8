# translator-patches: fixes for stock SystemTap (included from the top Makefile.am)

EXTRA_DIST += \
	translator-patches/README.md \
	translator-patches/stap-runtime-fix \
	translator-patches/task-work-cancel-func.patch
