"""The rules of Cursed Bottle."""
