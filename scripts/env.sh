# Sourced by the scripts: the environment the toolchain needs (README.md, "Dependencies and toolchain").
# Debian's Emscripten runs its JS optimizer with Node and needs Debian's node modules (acorn).
# (Its cache of system libraries is prebuilt and frozen in /usr/share/emscripten/cache.)
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
