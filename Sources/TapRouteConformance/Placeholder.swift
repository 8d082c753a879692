// placeholder during bootstrap
