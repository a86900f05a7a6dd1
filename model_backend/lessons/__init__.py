"""One module (or package) per page, named after it: the analyses each lesson draws. Uses core/ and runtime/."""
