// C shim for EGL, GLES 3 and GBM. It provides no Swift API of its own: GLBackend is its only user.
#ifndef OPENQUARTZ_CEGL_SHIM_H
#define OPENQUARTZ_CEGL_SHIM_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>   // GL_KHR_debug: debug output where the driver offers it
#include <gbm.h>
#include <fcntl.h>
#include <unistd.h>
#endif
