# agent: built from issue 3 on (placeholder so the top Makefile.am can include it).
