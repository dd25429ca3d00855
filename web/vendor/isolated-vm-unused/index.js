// @builder.io/react loads isolated-vm only when it renders on a Node server; this app never does.
throw new Error('isolated-vm is not installed: Builder content is rendered in the browser only');
