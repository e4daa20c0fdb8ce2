extern "C" void vadd(void** inputs, void** outputs, long n, const double* attrs, long* cost)
{
    const DTYPE_X* x = static_cast<const DTYPE_X*>(inputs[0]);
    const DTYPE_Y* y = static_cast<const DTYPE_Y*>(inputs[1]);
    DTYPE_Z* z = static_cast<DTYPE_Z*>(outputs[0]);
    for (long i = 0; i < n; ++i) {
        z[i] = x[i] + y[i];
    }
    *cost += 100 + n;
}
