// Arguments module.
