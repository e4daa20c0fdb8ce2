// graph/utils/type_utils.h -- ge::TypeUtils (data type helpers used by tiling code).
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>
#include <string>

#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  // Bytes per element of data_type; false for types without a fixed size (string, resource...).
  static bool GetDataTypeLength(DataType data_type, uint32_t& length) {
    int size = GetSizeByDataType(data_type);
    if (size <= 0) {
      return false;
    }
    length = static_cast<uint32_t>(size);
    return true;
  }

  static std::string DataTypeToSerialString(DataType data_type) {
    switch (data_type) {
      case DT_FLOAT: return "DT_FLOAT";
      case DT_FLOAT16: return "DT_FLOAT16";
      case DT_BF16: return "DT_BF16";
      case DT_INT8: return "DT_INT8";
      case DT_UINT8: return "DT_UINT8";
      case DT_INT16: return "DT_INT16";
      case DT_UINT16: return "DT_UINT16";
      case DT_INT32: return "DT_INT32";
      case DT_UINT32: return "DT_UINT32";
      case DT_INT64: return "DT_INT64";
      case DT_UINT64: return "DT_UINT64";
      case DT_DOUBLE: return "DT_DOUBLE";
      case DT_BOOL: return "DT_BOOL";
      case DT_COMPLEX64: return "DT_COMPLEX64";
      case DT_COMPLEX128: return "DT_COMPLEX128";
      case DT_INT4: return "DT_INT4";
      default: return "DT_UNDEFINED";
    }
  }

  static std::string FormatToSerialString(Format format) {
    switch (format) {
      case FORMAT_NCHW: return "NCHW";
      case FORMAT_NHWC: return "NHWC";
      case FORMAT_ND: return "ND";
      case FORMAT_NC1HWC0: return "NC1HWC0";
      case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
      case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
      case FORMAT_NCDHW: return "NCDHW";
      case FORMAT_NDHWC: return "NDHWC";
      default: return "RESERVED";
    }
  }
};

}  // namespace ge
