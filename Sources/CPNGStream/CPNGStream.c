#include "CPNGStream.h"
