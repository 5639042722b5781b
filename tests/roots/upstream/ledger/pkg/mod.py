def compute_total(items, discount):
    subtotal = sum(item.price for item in items)
    return subtotal - discount


def other():
    return 2
