// host side: nothing to do for the g++ test toolchain
