extern "C" void add_custom(void** inputs, void** outputs, long n, const double* attrs, long* cost) {}
