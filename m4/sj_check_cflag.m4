# SJ_CHECK_CFLAG(FLAGS, VARIABLE): append FLAGS to VARIABLE when the C compiler
# accepts them both compiling and linking (sanitizers need the linker too).
AC_DEFUN([SJ_CHECK_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  sj_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS $1"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); $2="$$2 $1"],
    [AC_MSG_RESULT([no])])
  CFLAGS=$sj_save_CFLAGS
])
