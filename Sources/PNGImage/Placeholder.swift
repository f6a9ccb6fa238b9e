// PNGImage module.
