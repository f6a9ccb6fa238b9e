// XMLTree module.
