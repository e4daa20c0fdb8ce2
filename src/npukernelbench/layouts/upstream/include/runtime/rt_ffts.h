// runtime/rt_ffts.h -- npukernelbench stand-in: a few public NPUKernelBench pybind.cpp files include
// this CANN runtime header without using it. It declares nothing.
#pragma once
